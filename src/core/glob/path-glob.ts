// Path globs (picomatch syntax, `dot: true`) matched in linear time. picomatch
// parses the glob — its semantics stay roz's — and linear-regex.ts runs the
// regex it emits in bounded time, because the globs come from files the
// agent can write. A glob whose regex is not regular (picomatch passes `\1`
// through) is refused: it matches nothing, which keeps governance closed (an
// owned_scope that matches nothing allows nothing; an ignore line that matches
// nothing ignores nothing), and the caller can say so from `refused`.
import picomatch from 'picomatch';
import { anyOf, parseRegex, type ParsedRegex } from './linear-regex.js';

export type GlobTest = ((input: string) => boolean) & { refused: string[] };

function parse(glob: string): ParsedRegex | null {
  try {
    const re = picomatch.makeRe(glob, { dot: true });
    return parseRegex(re.source, re.flags);
  } catch {
    return null;
  }
}

/**
 * picomatch(globs, { dot: true }) with the same answers: an empty input never
 * matches, a glob's own text always does, otherwise its regex decides. All the
 * globs' regexes run as one alternation, one pass over the input.
 */
export function globTest(globs: readonly string[]): GlobTest {
  const refused: string[] = [];
  const literal = new Set<string>();
  const parsed: ParsedRegex[] = [];
  for (const glob of globs) {
    if (!glob) continue;
    // Each glob parsed alone, so one unsupported glob does not take the others with it.
    const p = parse(glob);
    if (p === null) refused.push(glob);
    else {
      literal.add(glob);
      parsed.push(p);
    }
  }
  const test = anyOf(parsed);
  return Object.assign((input: string) => input !== '' && (literal.has(input) || test(input)), { refused });
}
