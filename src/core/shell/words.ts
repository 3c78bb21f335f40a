// Turns unbash Word nodes into ShellWords: cooked text plus what is statically unknown about them.
import type { Word, WordPart } from 'unbash';
import type { ShellWord } from './types.js';

/** Cook one parsed word. Words without parts are plain literals, so no scan is needed. */
export function cookWord(word: Word): ShellWord {
  const parts = word.parts;
  if (parts === undefined) return { value: word.value, dynamic: false, glob: false };
  const flags = { dynamic: false, glob: false };
  scanParts(parts, flags);
  return { value: word.value, dynamic: flags.dynamic, glob: flags.glob };
}

/** Whether word parts hold an expansion whose value is only known at run time. */
export function partsDynamic(parts: readonly WordPart[]): boolean {
  const flags = { dynamic: false, glob: false };
  scanParts(parts, flags);
  return flags.dynamic;
}

function scanParts(parts: readonly WordPart[], flags: { dynamic: boolean; glob: boolean }): void {
  for (const part of parts) {
    switch (part.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        break;
      case 'DoubleQuoted':
      case 'LocaleString':
        // Quoted children can only be literals or expansions: never globs.
        scanParts(part.parts, flags);
        break;
      case 'Glob':
      case 'ExtendedGlob':
      case 'BraceExpansion':
        flags.glob = true;
        break;
      case 'SimpleExpansion':
      case 'ParameterExpansion':
      case 'CommandExpansion':
      case 'ArithmeticExpansion':
      case 'ProcessSubstitution':
        flags.dynamic = true;
        break;
    }
  }
}

/** A word made up by the analyser itself (e.g. split from a string), known to be literal. */
export function literalWord(value: string): ShellWord {
  return { value, dynamic: false, glob: false };
}

/** `/usr/bin/rm` → `rm`; used so absolute invocations match the same rules as bare names. */
export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** `NAME=value` as accepted by env/sudo in front of a command. */
export function splitAssignment(value: string): { name: string; value: string } | undefined {
  const eq = value.indexOf('=');
  if (eq <= 0) return undefined;
  const name = value.slice(0, eq);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  return { name, value: value.slice(eq + 1) };
}
