// `.gitignore` matching in bounded time. tree-snapshot.ts honours the
// `.gitignore` files in the work tree, which the agent writes, against paths
// the agent creates, inside the session lock. The `ignore` library keeps git's
// semantics, but its RegExps backtrack: `**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b`
// against a 100-level `a/a/a/…` path ran for more than 20 s (measured). So
// each rule keeps the regex `ignore` compiles (its semantics, all of them) and
// runs it through core/glob/linear-regex.ts, which keeps V8 where the worst
// case is at most quadratic on short paths and otherwise runs a
// backtracking-free NFA.
//
// This reaches into `ignore`'s rule objects (v7: `_rules._rules`, each rule
// caching its regexes under `_regex` / `_checkRegex` and building them with
// `_make`): a rule's cache is filled with the bounded test before `ignore`
// ever builds its own. If those internals change, boundedIgnore throws (the
// snapshot then fails and says so; it never counts as unchanged), and
// test/core/glob/bounded-globs.test.ts fails.
import ignore, { type Ignore, type Options } from 'ignore';
import { anyOf, parseRegex } from '../core/glob/linear-regex.js';

interface RuleInternals {
  _make?: (mode: string, key: string) => RegExp;
}

const MODES = [
  ['regex', '_regex'],
  ['checkRegex', '_checkRegex'],
] as const;

let scratch = 0;

export function boundedIgnore(text: string, options: Options = {}): Ignore {
  const ig = ignore(options).add(text);
  const rules = (ig as unknown as { _rules?: { _rules?: unknown } })._rules?._rules;
  if (!Array.isArray(rules)) throw new Error("roz: the ignore library's rules are not where roz expects them (bounded .gitignore matching)");
  for (const rule of rules as RuleInternals[]) {
    if (typeof rule._make !== 'function') throw new Error("roz: the ignore library's rules are not what roz expects (bounded .gitignore matching)");
    for (const [mode, key] of MODES) {
      if (Object.hasOwn(rule, key)) continue;
      // _make caches what it builds under the key it is given: a scratch key, so `key` stays free for ours.
      const re = rule._make(mode, `_rozScratch${scratch++}`);
      let test: (s: string) => boolean;
      try {
        test = anyOf([parseRegex(re.source, re.flags)]);
      } catch {
        // Not regular (never emitted by ignore today): the rule ignores nothing, so the file stays in the snapshot the reviewer sees.
        test = () => false;
      }
      Object.defineProperty(rule, key, { value: { test, source: re.source, flags: re.flags } });
    }
  }
  return ig;
}
