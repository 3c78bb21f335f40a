// A regular-expression matcher that cannot backtrack, for the regexes
// picomatch compiles from globs. V8's engine backtracks: picomatch turns the
// glob `*a*a*a*a*a*a*a*a*b` into lazy `[^/]*?a[^/]*?a…` and one test against a
// 120-character name ran for minutes. The glob comes from files the agent can
// write (intents' owned_scope, `.roz/config.toml`, `.intentignore`), so roz
// keeps picomatch's parser (its semantics, quirks included) and runs the regex
// it emits on a Thompson NFA simulated breadth-first (a Pike VM): every input
// position visits each instruction at most once, O(input × program).
//
// The subset is what picomatch emits plus what an agent can smuggle through
// it: literals, escapes, classes, `.`, groups, alternation, greedy and lazy
// quantifiers (laziness does not change whether a match exists), `^`, `$`,
// `\b`, lookaheads. A lookahead is answered once per (lookahead, position)
// and remembered, so it adds at most O(input × its program) per lookahead.
// Backreferences and lookbehinds are not regular (or not needed): compiling
// them throws UnsupportedRegexError, and callers refuse such a glob.

export class UnsupportedRegexError extends Error {}

type Pred = (c: number) => boolean;

type Node =
  | { t: 'char'; test: Pred }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'repeat'; node: Node; min: number; max: number }
  | { t: 'assert'; kind: 'bol' | 'eol' | 'word' | 'nonword' }
  | { t: 'look'; neg: boolean; node: Node };

/** More instructions than this (e.g. `x{100000}`) is refused, not expanded. */
const MAX_PROGRAM = 100_000;

const isLineTerminator = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace = (c: number) => /\s/.test(String.fromCharCode(c));

const classes = new Map<string, Pred>();
/** A class `[...]` as a predicate: V8 answers for one character (constant time), ASCII answers are tabled on first use. */
function classPredicate(body: string, ignoreCase: boolean): Pred {
  const cacheKey = `${ignoreCase ? 'i' : ''}[${body}]`;
  const known = classes.get(cacheKey);
  if (known) return known;
  let re: RegExp;
  try {
    re = new RegExp(`^[${body}]$`, ignoreCase ? 'i' : '');
  } catch (err) {
    throw new UnsupportedRegexError(`bad class [${body}]: ${(err as Error).message}`);
  }
  const ascii = new Int8Array(128); // 0 unknown, 1 in, -1 out
  const pred: Pred = (c) => {
    if (c >= 128) return re.test(String.fromCharCode(c));
    if (ascii[c] === 0) ascii[c] = re.test(String.fromCharCode(c)) ? 1 : -1;
    return ascii[c] === 1;
  };
  classes.set(cacheKey, pred);
  return pred;
}

/** Canonicalize (ECMA-262, without `u`): the one-character upper case, unless that leaves ASCII from outside it. */
function canonical(c: number): number {
  const up = String.fromCharCode(c).toUpperCase();
  if (up.length !== 1) return c;
  const u = up.charCodeAt(0);
  return c >= 128 && u < 128 ? c : u;
}

class Parser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly dotAll: boolean,
    private readonly ignoreCase: boolean,
  ) {}

  /** One literal code unit, folded like V8 folds it under `i`. */
  private lit(code: number): Node {
    if (!this.ignoreCase) return { t: 'char', test: (x) => x === code };
    const want = canonical(code);
    return { t: 'char', test: (x) => x === code || canonical(x) === want };
  }

  parse(): Node {
    const node = this.alt();
    if (this.i < this.s.length) throw new UnsupportedRegexError(`unexpected ${this.s[this.i]} at ${this.i}`);
    return node;
  }

  private alt(): Node {
    const items = [this.seq()];
    while (this.s[this.i] === '|') {
      this.i++;
      items.push(this.seq());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private seq(): Node {
    const items: Node[] = [];
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      let atom = this.atom();
      for (;;) {
        const q = this.quantifier();
        if (!q) break;
        if (atom.t === 'assert' || atom.t === 'look') throw new UnsupportedRegexError('quantified assertion');
        atom = { t: 'repeat', node: atom, min: q.min, max: q.max };
      }
      items.push(atom);
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  }

  private quantifier(): { min: number; max: number } | null {
    const c = this.s[this.i];
    let q: { min: number; max: number } | null = null;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    if (q) this.i++;
    else if (c === '{') {
      // Outside u mode a `{` that is not a well-formed quantifier is a literal (Annex B).
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.i));
      if (!m) return null;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (max < min) throw new UnsupportedRegexError('numbers out of order in quantifier');
      this.i += m[0].length;
      q = { min, max };
    }
    if (q && this.s[this.i] === '?') this.i++; // lazy: same answer to "is there a match"
    return q;
  }

  private atom(): Node {
    const s = this.s;
    const c = s[this.i]!;
    if (c === '(') {
      this.i++;
      let look: boolean | null = null;
      if (s.startsWith('?:', this.i)) this.i += 2;
      else if (s.startsWith('?=', this.i) || s.startsWith('?!', this.i)) {
        look = s[this.i + 1] === '!';
        this.i += 2;
      } else if (s.startsWith('?<', this.i) && s[this.i + 2] !== '=' && s[this.i + 2] !== '!') {
        const end = s.indexOf('>', this.i);
        if (end < 0) throw new UnsupportedRegexError('unterminated group name');
        this.i = end + 1;
      } else if (s[this.i] === '?') throw new UnsupportedRegexError(`unsupported group (${s.slice(this.i, this.i + 3)}`);
      const inner = this.alt();
      if (s[this.i] !== ')') throw new UnsupportedRegexError('unterminated group');
      this.i++;
      return look === null ? inner : { t: 'look', neg: look, node: inner };
    }
    if (c === '[') {
      let j = this.i + 1;
      if (s[j] === '^') j++;
      while (j < s.length && s[j] !== ']') j += s[j] === '\\' ? 2 : 1;
      if (j >= s.length) throw new UnsupportedRegexError('unterminated class');
      const body = s.slice(this.i + 1, j);
      this.i = j + 1;
      return { t: 'char', test: classPredicate(body, this.ignoreCase) };
    }
    this.i++;
    if (c === '.') return { t: 'char', test: this.dotAll ? () => true : (x) => !isLineTerminator(x) };
    if (c === '^') return { t: 'assert', kind: 'bol' };
    if (c === '$') return { t: 'assert', kind: 'eol' };
    if (c === '\\') return this.escape();
    if (c === ')' || c === '*' || c === '+' || c === '?') throw new UnsupportedRegexError(`nothing to repeat or unmatched ${c}`);
    return this.lit(c.charCodeAt(0));
  }

  private escape(): Node {
    const s = this.s;
    const c = s[this.i];
    if (c === undefined) throw new UnsupportedRegexError('\\ at end of pattern');
    this.i++;
    const lit = (code: number): Node => this.lit(code);
    switch (c) {
      case 'd':
        return { t: 'char', test: (x) => x >= 48 && x <= 57 };
      case 'D':
        return { t: 'char', test: (x) => !(x >= 48 && x <= 57) };
      case 'w':
        return { t: 'char', test: isWord };
      case 'W':
        return { t: 'char', test: (x) => !isWord(x) };
      case 's':
        return { t: 'char', test: isSpace };
      case 'S':
        return { t: 'char', test: (x) => !isSpace(x) };
      case 'b':
        return { t: 'assert', kind: 'word' };
      case 'B':
        return { t: 'assert', kind: 'nonword' };
      case 'n':
        return lit(10);
      case 'r':
        return lit(13);
      case 't':
        return lit(9);
      case 'f':
        return lit(12);
      case 'v':
        return lit(11);
      case 'x':
      case 'u': {
        const len = c === 'x' ? 2 : 4;
        const hex = s.slice(this.i, this.i + len);
        if (/^[0-9a-fA-F]+$/.test(hex) && hex.length === len) {
          this.i += len;
          return lit(Number.parseInt(hex, 16));
        }
        return lit(c.charCodeAt(0));
      }
      default:
        // A backreference is not regular; an octal escape is rare enough to refuse with it.
        if (c >= '0' && c <= '9') {
          if (c === '0' && !/[0-9]/.test(s[this.i] ?? '')) return lit(0);
          throw new UnsupportedRegexError(`backreference or octal escape \\${c}`);
        }
        return lit(c.charCodeAt(0));
    }
  }
}

type Inst =
  | { op: 'char'; test: Pred }
  | { op: 'split'; a: number; b: number }
  | { op: 'jmp'; to: number }
  | { op: 'assert'; kind: 'bol' | 'eol' | 'word' | 'nonword' }
  | { op: 'look'; neg: boolean; prog: Program; id: number }
  | { op: 'match' };

interface Program {
  insts: Inst[];
}

class Compiler {
  private looks = 0;
  private size = 0;

  program(node: Node): Program {
    const insts: Inst[] = [];
    this.emit(node, insts);
    insts.push({ op: 'match' });
    return { insts };
  }

  get lookCount(): number {
    return this.looks;
  }

  private push(insts: Inst[], inst: Inst): number {
    if (++this.size > MAX_PROGRAM) throw new UnsupportedRegexError(`pattern compiles to more than ${MAX_PROGRAM} instructions`);
    insts.push(inst);
    return insts.length - 1;
  }

  /** Instructions run in order; `char`, `assert` and `look` continue at the next index. */
  private emit(node: Node, insts: Inst[]): void {
    switch (node.t) {
      case 'char':
        this.push(insts, { op: 'char', test: node.test });
        return;
      case 'assert':
        this.push(insts, { op: 'assert', kind: node.kind });
        return;
      case 'look':
        this.push(insts, { op: 'look', neg: node.neg, prog: this.program(node.node), id: this.looks++ });
        return;
      case 'seq':
        for (const item of node.items) this.emit(item, insts);
        return;
      case 'alt': {
        const jumps: Inst[] = [];
        node.items.forEach((item, k) => {
          if (k < node.items.length - 1) {
            const split = { op: 'split', a: 0, b: 0 } as Extract<Inst, { op: 'split' }>;
            this.push(insts, split);
            split.a = insts.length;
            this.emit(item, insts);
            const jmp = { op: 'jmp', to: 0 } as Extract<Inst, { op: 'jmp' }>;
            this.push(insts, jmp);
            jumps.push(jmp);
            split.b = insts.length;
          } else this.emit(item, insts);
        });
        for (const j of jumps) (j as Extract<Inst, { op: 'jmp' }>).to = insts.length;
        return;
      }
      case 'repeat': {
        for (let k = 0; k < node.min; k++) this.emit(node.node, insts);
        if (node.max === Infinity) {
          const loop = { op: 'split', a: 0, b: 0 } as Extract<Inst, { op: 'split' }>;
          const at = this.push(insts, loop);
          loop.a = insts.length;
          this.emit(node.node, insts);
          this.push(insts, { op: 'jmp', to: at });
          loop.b = insts.length;
          return;
        }
        const splits: Extract<Inst, { op: 'split' }>[] = [];
        for (let k = node.min; k < node.max; k++) {
          const split = { op: 'split', a: 0, b: 0 } as Extract<Inst, { op: 'split' }>;
          this.push(insts, split);
          split.a = insts.length;
          splits.push(split);
          this.emit(node.node, insts);
        }
        for (const sp of splits) sp.b = insts.length;
        return;
      }
    }
  }
}

/** One test's memory: each lookahead is answered once per position. */
class Run {
  private readonly memo = new Map<number, boolean>();
  constructor(
    readonly s: string,
    private readonly looks: number,
  ) {}

  look(inst: Extract<Inst, { op: 'look' }>, at: number): boolean {
    const key = at * this.looks + inst.id;
    let hit = this.memo.get(key);
    if (hit === undefined) {
      hit = this.run(inst.prog, at, false);
      this.memo.set(key, hit);
    }
    return inst.neg ? !hit : hit;
  }

  private holds(kind: 'bol' | 'eol' | 'word' | 'nonword', at: number): boolean {
    const s = this.s;
    switch (kind) {
      case 'bol':
        return at === 0;
      case 'eol':
        return at === s.length;
      default: {
        const before = at > 0 && isWord(s.charCodeAt(at - 1));
        const after = at < s.length && isWord(s.charCodeAt(at));
        return (before !== after) === (kind === 'word');
      }
    }
  }

  /**
   * Does `prog` match starting at `from` (or, searching, at any position from
   * there on)? Breadth-first: the threads at one position are a set of
   * instruction indexes, so no path through the program is tried twice.
   */
  run(prog: Program, from: number, search: boolean): boolean {
    const { insts } = prog;
    const s = this.s;
    const seen = new Int32Array(insts.length).fill(-1);
    let current: number[] = [];
    let next: number[] = [];
    const stack: number[] = [];
    // Follows jumps, splits and assertions at position `at`; true when `match` is reached.
    const add = (list: number[], start: number, at: number): boolean => {
      stack.push(start);
      while (stack.length) {
        const pc = stack.pop()!;
        if (seen[pc] === at) continue;
        seen[pc] = at;
        const inst = insts[pc]!;
        switch (inst.op) {
          case 'match':
            stack.length = 0;
            return true;
          case 'char':
            list.push(pc);
            break;
          case 'jmp':
            stack.push(inst.to);
            break;
          case 'split':
            stack.push(inst.b, inst.a);
            break;
          case 'assert':
            if (this.holds(inst.kind, at)) stack.push(pc + 1);
            break;
          case 'look':
            if (this.look(inst, at)) stack.push(pc + 1);
            break;
        }
      }
      return false;
    };
    for (let at = from; ; at++) {
      if ((search || at === from) && add(current, 0, at)) return true;
      if (at >= s.length || current.length === 0) {
        if (!search || at >= s.length) return false;
        continue;
      }
      const c = s.charCodeAt(at);
      for (const pc of current) {
        const inst = insts[pc] as Extract<Inst, { op: 'char' }>;
        if (inst.test(c) && add(next, pc + 1, at + 1)) return true;
      }
      [current, next] = [next, current];
      next.length = 0;
    }
  }
}

/**
 * How badly V8's backtracking can do on this node: the degree of the
 * polynomial in the input length (Infinity: exponential). Sequenced unbounded
 * loops multiply (`[^/]*?a[^/]*?` is n²); alternatives do not; a loop over
 * anything but exactly one character per turn (`(a|a)*`, `(a*)*`) can be
 * exponential.
 */
function degree(node: Node): number {
  switch (node.t) {
    case 'char':
    case 'assert':
      return 0;
    case 'look':
      return degree(node.node);
    case 'seq':
      return node.items.reduce((sum, n) => sum + degree(n), 0);
    case 'alt':
      return Math.max(...node.items.map(degree));
    case 'repeat':
      if (node.max === Infinity) return oneCharWide(node.node) ? 1 : Infinity;
      return degree(node.node) * node.max;
  }
}

/** Does every way through the node consume exactly one character (with no choice how)? */
function oneCharWide(node: Node): boolean {
  switch (node.t) {
    case 'char':
      return true;
    case 'seq': {
      const consuming = node.items.filter((n) => n.t !== 'assert' && n.t !== 'look');
      return consuming.length === 1 && oneCharWide(consuming[0]!) && node.items.every((n) => n.t !== 'look' || degree(n) === 0);
    }
    default:
      return false;
  }
}

/** A parsed regex: its source (for V8) and its tree (for the linear matcher). */
export interface ParsedRegex {
  source: string;
  flags: string;
  node: Node;
}

/** Parse a regex (as `RegExp#source`/`#flags` give it); throws UnsupportedRegexError outside the subset. */
export function parseRegex(source: string, flags = ''): ParsedRegex {
  if (/[^si]/.test(flags)) throw new UnsupportedRegexError(`flags ${flags} not supported`);
  return { source, flags, node: new Parser(source, flags.includes('s'), flags.includes('i')).parse() };
}

/**
 * V8 runs a regex whose worst case is at most quadratic on inputs up to this
 * long (a million steps, milliseconds); anything else runs on the NFA.
 */
const NATIVE_MAX_DEGREE = 2;
const NATIVE_MAX_INPUT = 1024;

/**
 * A test answering like `RegExp#test` for any of the regexes, in bounded
 * time. The common globs (`src/**`, `**\/*.ts`: at most two loops in a row)
 * keep V8's speed; a regex that could backtrack worse, or a long input, goes
 * to the Pike VM (O(input × program)).
 */
export function anyOf(regexes: readonly ParsedRegex[]): (input: string) => boolean {
  if (regexes.length === 0) return () => false;
  const node: Node = regexes.length === 1 ? regexes[0]!.node : { t: 'alt', items: regexes.map((r) => r.node) };
  const flags = regexes[0]!.flags;
  if (regexes.some((r) => r.flags !== flags)) throw new UnsupportedRegexError('regexes with different flags in one test');
  const native =
    degree(node) <= NATIVE_MAX_DEGREE ? new RegExp(regexes.length === 1 ? regexes[0]!.source : regexes.map((r) => `(?:${r.source})`).join('|'), flags) : null;
  let vm: ((input: string) => boolean) | null = null;
  return (input) => {
    if (native !== null && input.length <= NATIVE_MAX_INPUT) return native.test(input);
    if (vm === null) {
      const compiler = new Compiler();
      const prog = compiler.program(node);
      const looks = Math.max(1, compiler.lookCount);
      vm = (s) => new Run(s, looks).run(prog, 0, true);
    }
    return vm(input);
  };
}

/** Always the Pike VM (tests compare it with V8). */
export function linearRegex(source: string, flags = ''): { test(input: string): boolean } {
  const { node } = parseRegex(source, flags);
  const compiler = new Compiler();
  const prog = compiler.program(node);
  const looks = Math.max(1, compiler.lookCount);
  return { test: (input) => new Run(input, looks).run(prog, 0, true) };
}
