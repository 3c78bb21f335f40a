// Arguments and command text that reach a command some other way than its own argv:
// the lines `echo`/`printf` feed to `xargs`/`parallel`, the words `env -S` splits, the
// name a `$(echo rm)` prints. Each helper returns what it could read for certain, or
// undefined when the text is only known at run time (the caller then fails closed).
import type { ShellWord, SimpleCommand } from './types.js';
import { literalWord } from './words.js';

/** At most this many stdin items are expanded into commands; more is still judged, by the first ones. */
export const MAX_ITEMS = 16;

/**
 * What `echo …`/`printf …` prints, when every word is literal: `echo / ~` → `/ ~`,
 * `printf '%s\n' a b` → `a\nb`. Undefined for anything else.
 */
export function printedText(cmd: SimpleCommand): string | undefined {
  if (cmd.name !== 'echo' && cmd.name !== 'printf') return undefined;
  if (cmd.dynamic.some((d, i) => i > 0 && d)) return undefined;
  let words = cmd.argv.slice(1);
  if (cmd.name === 'echo') {
    while (words.length > 0 && /^-[neE]+$/.test(words[0]!)) words = words.slice(1);
    return words.join(' ');
  }
  const [format, ...rest] = words;
  if (format === undefined) return undefined;
  // `printf '%s\n' a b` repeats the format for each argument; other formats print their text.
  if (/%s/.test(format) && rest.length > 0)
    return rest
      .map((r) => format.replace(/%s/g, r))
      .join('')
      .replace(/\\n/g, '\n');
  return format.replace(/\\n/g, '\n');
}

/** Lines (xargs -I, parallel) or blank-separated words (plain xargs) of a text. */
export function splitItems(text: string, byLine: boolean): string[] {
  const items = byLine ? text.split('\n').map((l) => l.trim()) : splitWords(text);
  return items.filter((i) => i !== '').slice(0, MAX_ITEMS);
}

/** Blank-separated words with simple quotes removed, as `xargs` and `env -S` read them. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  const re = /(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+))+/g;
  for (const m of text.matchAll(re))
    out.push(m[0].replace(/'([^']*)'|"((?:[^"\\]|\\.)*)"/g, (_, a: string | undefined, b: string | undefined) => a ?? b ?? ''));
  return out;
}

/** The replace string of `xargs -I R` / `-i[R]` / `--replace[=R]` / BSD `-J R`, if the options set one. */
export function xargsReplace(words: readonly ShellWord[], from: number, to: number): string | undefined {
  let replace: string | undefined;
  for (let i = from; i < to; i++) {
    const v = words[i]!.value;
    if (v === '-I' || v === '-J') replace = words[i + 1]?.value;
    else if (/^-[IJ]./.test(v)) replace = v.slice(2);
    else if (v === '-i' || v === '--replace') replace = '{}';
    else if (/^-i./.test(v)) replace = v.slice(2);
    else if (v.startsWith('--replace=')) replace = v.slice('--replace='.length);
  }
  return replace === '' ? undefined : replace;
}

/**
 * `env [opts] -S STRING …`: GNU env splits STRING into words in place. Returns the argv with the
 * string split, or undefined when there is no -S (or its string is only known at run time).
 */
export function spliceEnvSplit(words: readonly ShellWord[], at: number): ShellWord[] | undefined {
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    let value: ShellWord | undefined;
    let end = i + 1;
    if (v === '-S' || v === '--split-string') {
      value = words[i + 1];
      end = i + 2;
    } else if (v.startsWith('--split-string=')) value = { ...w, value: v.slice('--split-string='.length) };
    else if (/^-[iv0]*S./.test(v)) value = { ...w, value: v.slice(v.indexOf('S') + 1) };
    else if (v === '-u' || v === '-C' || v === '-P' || v === '--unset' || v === '--chdir') {
      i++;
      continue;
    } else if (v.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) continue;
    else return undefined;
    if (value === undefined || value.dynamic) return undefined;
    return [...words.slice(0, i), ...splitWords(value.value).map(literalWord), ...words.slice(end)];
  }
  return undefined;
}

/** Commands that print a name or path and change nothing, as used in `$(which rm)`. */
const NAME_PRINTERS = /^\s*(?:which|command\s+-v|type\s+-P|whence\s+-p)\s+([\w.+-]+)\s*$/;
/** Literal text without quoting or expansion, as printed by `$(echo rm -rf)`. */
const PLAIN_ECHO = /^\s*(?:echo|printf)\s+((?:-[neE]+\s+)?[\w./~+-][\w./~+\s-]*?)\s*$/;

/**
 * The words a command-name substitution stands for, when a read-only command prints
 * literal text: `$(echo rm)` → rm, `` `echo rm -rf` `` → rm -rf, `$(which git)` → git.
 */
export function evaluateHead(word: ShellWord): ShellWord[] | undefined {
  const m = /^\$\(([^()`]*)\)$/.exec(word.value) ?? /^`([^`$()]*)`$/.exec(word.value);
  if (m === null) return undefined;
  const body = m[1]!;
  const named = NAME_PRINTERS.exec(body);
  if (named !== null) return [literalWord(named[1]!)];
  const echoed = PLAIN_ECHO.exec(body);
  if (echoed === null) return undefined;
  const words = echoed[1]!.split(/\s+/).filter((w) => w !== '' && !/^-[neE]+$/.test(w));
  return words.length > 0 ? words.map(literalWord) : undefined;
}
