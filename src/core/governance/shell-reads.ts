// The files a shell command shows the agent, for a client with no read tool
// (Codex: it reads files with `cat`, `sed -n`, `head`): those are its reads
// for the stale-file rule. Only plain, statically known reads count, whose
// output reaches the agent: a word known only at run time, a glob, a `cd` in
// the line (paths would resolve elsewhere), output redirected to a file, or
// a command inside a substitution names no read. A missed read only means the
// agent's next patch of that file is not checked; a read counted wrongly could
// let a stale patch through, so when in doubt nothing counts. Pure.
import type { ShellAnalysis, SimpleCommand } from '../shell/types.js';

/** Reading commands -> options that take a value (their next word is not a file). */
const READERS: Readonly<Record<string, ReadonlySet<string>>> = {
  cat: new Set(),
  nl: new Set(['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']),
  tac: new Set(['-s']),
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c', '-s', '--pid']),
  less: new Set(),
  more: new Set(),
  sed: new Set(['-e', '-f', '-l']),
};

/**
 * Searchers: the lines of each named file that match, which the agent then patches from, as it would
 * from `sed -n`. Options that take a value, and those whose output shows no line of the file (names,
 * counts, nothing, only the matched part, a rewritten line) or runs another program on it (`--pre`).
 */
interface Searcher {
  valued: ReadonlySet<string>;
  shortValued: string;
  hides: ReadonlySet<string>;
  shortHides: string;
}
const GREP: Searcher = {
  valued: new Set([
    '--regexp',
    '--file',
    '--max-count',
    '--after-context',
    '--before-context',
    '--context',
    '--directories',
    '--devices',
    '--include',
    '--exclude',
    '--exclude-dir',
    '--exclude-from',
    '--label',
    '--binary-files',
    '--group-separator',
  ]),
  shortValued: 'efmABCdD',
  hides: new Set(['--files-with-matches', '--files-without-match', '--count', '--quiet', '--silent', '--only-matching', '--null-data']),
  shortHides: 'lLcqoz',
};
const RG: Searcher = {
  valued: new Set([
    '--regexp',
    '--file',
    '--glob',
    '--iglob',
    '--max-count',
    '--after-context',
    '--before-context',
    '--context',
    '--type',
    '--type-not',
    '--type-add',
    '--type-clear',
    '--encoding',
    '--max-depth',
    '--sort',
    '--sortr',
    '--colors',
    '--color',
    '--context-separator',
    '--field-context-separator',
    '--field-match-separator',
    '--path-separator',
    '--threads',
    '--max-filesize',
    '--ignore-file',
    '--engine',
    '--dfa-size-limit',
    '--regex-size-limit',
    '--max-columns',
    '--pre-glob',
    '--hostname-bin',
    '--hyperlink-format',
    '--generate',
  ]),
  shortValued: 'efgmABCtTEjMd',
  hides: new Set([
    '--files',
    '--files-with-matches',
    '--files-without-match',
    '--count',
    '--count-matches',
    '--quiet',
    '--only-matching',
    '--replace',
    '--pre',
    '--type-list',
    '--json',
    '--null-data',
  ]),
  shortHides: 'lcqor',
};
const SEARCHERS: Readonly<Record<string, Searcher>> = { grep: GREP, egrep: GREP, fgrep: GREP, rg: RG };

const MOVES = new Set(['cd', 'pushd', 'popd']);

export function shellReads(a: ShellAnalysis): string[] {
  if (a.commands.some((c) => MOVES.has(c.name) || c.chdir)) return [];
  const out: string[] = [];
  for (const c of a.commands) if (shown(c, a.commands)) for (const f of readsOf(c)) if (!out.includes(f)) out.push(f);
  return out;
}

/**
 * Whether the command's output reaches the agent: in `a && b` and `a; b` it
 * does; in a pipeline only through readers (`nl -ba f | sed -n 1,80p`, not
 * `cat f | wc -l`); inside a substitution or in the background it does not.
 */
function shown(c: SimpleCommand, all: readonly SimpleCommand[]): boolean {
  return c.nesting.every((frame) => {
    if (frame.kind === 'and-or' || frame.kind === 'group' || frame.kind === 'subshell') return true;
    if (frame.kind !== 'pipeline') return false;
    return all.every((o) => {
      const f = o.nesting.find((x) => x.id === frame.id);
      return !f || (f.index ?? 0) <= (frame.index ?? 0) || o.name in READERS || o.name in SEARCHERS;
    });
  });
}

function readsOf(c: SimpleCommand): string[] {
  if (c.opaque || c.argsFromStdin) return [];
  // `cat f > g`: the agent did not see f's content.
  if (c.redirects.some((r) => (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>') && (r.fd ?? 1) === 1)) return [];
  const args = c.argv.slice(1);
  const words: Array<{ w: string; known: boolean }> = args.map((w, i) => ({ w, known: !c.dynamic[i + 1] && !c.glob[i + 1] }));
  const searcher = SEARCHERS[c.name];
  if (searcher) return searchedFiles(words, searcher);
  const valued = READERS[c.name];
  if (!valued) return [];
  if (c.name === 'sed' && args.some((w) => /^-[a-zA-Z]*i/.test(w) || w.startsWith('--in-place'))) return [];
  let script = c.name === 'sed' && !args.some((w) => w === '-e' || w === '-f' || /^--(expression|file)=/.test(w));
  const files: string[] = [];
  let optionsDone = false;
  for (let i = 0; i < words.length; i++) {
    const { w, known } = words[i]!;
    if (!optionsDone && w === '--') {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && w.startsWith('-') && w !== '-') {
      if (valued.has(w)) i++;
      continue;
    }
    if (script) {
      script = false;
      continue;
    }
    if (w === '-' || !known) continue;
    files.push(w);
  }
  return files;
}

/** The files named to `grep`/`rg` whose matching lines it prints: none when its output hides them. */
function searchedFiles(words: ReadonlyArray<{ w: string; known: boolean }>, o: Searcher): string[] {
  // grep and rg take options after their operands too: a word known only at run time (`$FLAGS`, a
  // glob matching a file named `-l`) could be one that hides the lines.
  if (words.some((x) => !x.known)) return [];
  const operands: string[] = [];
  let patternGiven = false;
  let optionsDone = false;
  for (let i = 0; i < words.length; i++) {
    const { w } = words[i]!;
    if (!optionsDone && w === '--') {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && w.startsWith('--')) {
      const name = w.split('=')[0]!;
      if (o.hides.has(name)) return [];
      if (name === '--regexp' || name === '--file') patternGiven = true;
      if (o.valued.has(name) && !w.includes('=')) i++;
      continue;
    }
    if (!optionsDone && w.startsWith('-') && w !== '-') {
      // A cluster (`-rn`, `-C3`, `-A 3`): letters until one that takes a value, which takes the rest or the next word.
      for (let j = 1; j < w.length; j++) {
        const letter = w[j]!;
        if (o.shortHides.includes(letter)) return [];
        if (o.shortValued.includes(letter)) {
          if (letter === 'e' || letter === 'f') patternGiven = true;
          if (j === w.length - 1) i++;
          break;
        }
      }
      continue;
    }
    operands.push(w);
  }
  const files = patternGiven ? operands : operands.slice(1);
  return files.filter((f) => f !== '-');
}
