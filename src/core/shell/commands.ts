// Parses a command line once and flattens it into every simple command that could run, wrappers peeled.
import { forEachChild, parse } from 'unbash';
import type { AndOr, Command, CommandNode, CompoundList, ParsedScript, PipelineNode, Redirection, Statement, SyntaxNode } from 'unbash';
import type { NestingFrame, NestingKind, ShellAnalysis, ShellAssignment, ShellParseError, ShellRedirect, ShellWord, SimpleCommand } from './types.js';
import { evaluateHead, MAX_ITEMS, printedText, spliceEnvSplit, splitItems, xargsReplace } from './stdin-args.js';
import { basename, cookWord, literalWord, partsDynamic } from './words.js';
import {
  DASH_C_RUNNERS,
  PROGRAM_RUNNERS,
  SUBCOMMAND_RUNNERS,
  WATCH,
  WRAPPERS,
  looksLikeWrapper,
  packageBinary,
  peelWrapper,
  type WrapperSpec,
} from './wrappers.js';

export type * from './types.js';

/** How many times a string may be re-parsed (`bash -c "eval '...'"`) before we give up and fail closed. */
export const MAX_REPARSE_DEPTH = 6;

/** Shells whose `-c STRING` (or here-doc on stdin) is itself a script we should look into. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);

/** find predicates whose next word is their value, not an action. */
const FIND_VALUE_PREDICATES = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-type',
  '-xtype',
  '-user',
  '-group',
  '-perm',
  '-size',
  '-newer',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-maxdepth',
  '-mindepth',
  '-lname',
  '-ilname',
  '-samefile',
  '-inum',
  '-links',
  '-uid',
  '-gid',
  '-fstype',
  '-printf',
  '-fprintf',
  '-fprint',
  '-fls',
  '-context',
]);

/** find actions that run a command up to `;` or `{} +`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Kinds whose commands run in a child process, so `cd` inside does not leak out. */
const ISOLATED: ReadonlySet<NestingKind> = new Set<NestingKind>([
  'pipeline',
  'background',
  'subshell',
  'substitution',
  'process-substitution',
  'coproc',
  'shell-c',
  'find-exec',
  'function',
]);

/** What an enclosing wrapper passes down to the commands of a body it runs (`sudo bash -c '...'`). */
interface Inherited {
  sudo: boolean;
  argsFromStdin: boolean;
  wrappers: readonly string[];
}

/** Per-command data gathered before wrappers are peeled. */
interface Base {
  assignments: ShellAssignment[];
  redirects: ShellRedirect[];
  text: string;
  /** Script fed on stdin by a here-doc/here-string, for `bash <<EOF`. */
  stdinScript: string | undefined;
  /** The here-doc/here-string holds expansions (`bash <<< "$(curl ...)"`): its text is not known. */
  stdinDynamic?: boolean;
}

/**
 * Where peeling a command's wrappers has got to (Walker.peelWrappers): the words (a wrapper may
 * rewrite them), where the command now starts, and what the wrappers peeled so far pass down.
 */
interface Peeling {
  words: ShellWord[];
  start: number;
  wrappers: readonly string[];
  sudo: boolean;
  argsFromStdin: boolean;
  assignments: ShellAssignment[];
  /** `env -C DIR`: where the command runs. */
  chdir: ShellWord | undefined;
}

function inheritedOf(p: Peeling): Inherited {
  return { sudo: p.sudo, argsFromStdin: p.argsFromStdin, wrappers: p.wrappers };
}

const ROOT: Inherited = { sudo: false, argsFromStdin: false, wrappers: [] };
const NO_FRAMES: readonly NestingFrame[] = [];

class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly errors: ShellParseError[] = [];
  complete = true;
  private nextId = 0;

  frame(kind: NestingKind, extra?: Partial<NestingFrame>): NestingFrame {
    return { kind, id: this.nextId++, isolated: ISOLATED.has(kind), ...extra };
  }

  /** Parse a string found inside the command (bash -c body, eval argument) and walk it. */
  reparse(source: string, frames: readonly NestingFrame[], depth: number, inherited: Inherited, text: string): void {
    if (depth > MAX_REPARSE_DEPTH) {
      this.opaque([literalWord(source)], emptyBase(text), frames, depth, inherited, 'nested too deeply to analyse');
      return;
    }
    this.script(parse(source), source, frames, depth, inherited);
  }

  script(script: ParsedScript, src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    if (script.errors !== undefined && script.errors.length > 0) {
      this.complete = false;
      for (const e of script.errors) this.errors.push({ message: e.message, pos: e.pos, depth });
    }
    // Escaped-backtick scripts carry their own decoded source; positions index it.
    this.statements(script.commands, script.source ?? src, frames, depth, inh);
  }

  list(list: CompoundList, src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    this.statements(list.commands, src, frames, depth, inh);
  }

  statements(statements: readonly Statement[], src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    for (const statement of statements) {
      const inner = statement.background ? [...frames, this.frame('background')] : frames;
      this.node(statement.command, src, inner, depth, inh);
    }
  }

  node(node: PipelineNode | AndOr | CompoundList, src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    switch (node.type) {
      case 'CompoundList':
        this.list(node, src, frames, depth, inh);
        return;
      case 'AndOr': {
        const id = this.nextId++;
        node.commands.forEach((child, index) => {
          const operator = index === 0 ? undefined : node.operators[index - 1];
          const frame: NestingFrame = { kind: 'and-or', id, index, isolated: false };
          if (operator !== undefined) frame.operator = operator;
          this.node(child, src, [...frames, frame], depth, inh);
        });
        return;
      }
      case 'Pipeline': {
        if (node.commands.length === 1) {
          this.node(node.commands[0]!, src, frames, depth, inh);
          return;
        }
        const id = this.nextId++;
        node.commands.forEach((child, index) => {
          this.node(child, src, [...frames, { kind: 'pipeline', id, index, isolated: true }], depth, inh);
        });
        return;
      }
      default:
        this.commandNode(node, src, frames, depth, inh);
    }
  }

  commandNode(node: CommandNode, src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    switch (node.type) {
      case 'Command':
        this.simple(node, src, frames, depth, inh);
        return;
      case 'Subshell':
        this.list(node.body, src, [...frames, this.frame('subshell')], depth, inh);
        return;
      case 'BraceGroup':
        this.list(node.body, src, [...frames, this.frame('group')], depth, inh);
        return;
      case 'If': {
        const inner = [...frames, this.frame('if')];
        this.list(node.clause, src, inner, depth, inh);
        this.list(node.then, src, inner, depth, inh);
        for (const elif of node.elif) {
          this.list(elif.clause, src, inner, depth, inh);
          this.list(elif.then, src, inner, depth, inh);
        }
        if (node.else !== undefined) this.list(node.else, src, inner, depth, inh);
        return;
      }
      case 'While': {
        const inner = [...frames, this.frame(node.kind)];
        this.list(node.clause, src, inner, depth, inh);
        this.list(node.body, src, inner, depth, inh);
        return;
      }
      case 'For':
      case 'Select': {
        const inner = [...frames, this.frame(node.type === 'For' ? 'for' : 'select')];
        for (const word of node.wordlist ?? []) this.substitutions(word, src, frames, depth, inh);
        this.list(node.body, src, inner, depth, inh);
        return;
      }
      case 'ArithmeticFor': {
        for (const e of [node.initialize, node.test, node.update]) if (e !== undefined) this.substitutions(e, src, frames, depth, inh);
        this.list(node.body, src, [...frames, this.frame('for')], depth, inh);
        return;
      }
      case 'Case': {
        this.substitutions(node.word, src, frames, depth, inh);
        const inner = [...frames, this.frame('case')];
        for (const item of node.items) {
          for (const pattern of item.pattern) this.substitutions(pattern, src, frames, depth, inh);
          this.list(item.body, src, inner, depth, inh);
        }
        return;
      }
      case 'TestCommand':
      case 'ArithmeticCommand':
        this.substitutions(node, src, frames, depth, inh);
        return;
      case 'Redirected': {
        // Redirections of a compound command are opened before its body runs: carry them first.
        for (const r of node.redirects) this.substitutions(r, src, frames, depth, inh);
        const base = emptyBase(src.slice(node.pos, node.end));
        base.redirects = node.redirects.map(cookRedirect);
        this.push([], base, [...frames, this.frame('redirected')], depth, inh, undefined);
        this.commandNode(node.command, src, frames, depth, inh);
        return;
      }
      case 'Function': {
        const inner = [...frames, this.frame('function', { name: node.name.value })];
        const body = node.body;
        if (body.type === 'CompoundList') this.list(body, src, inner, depth, inh);
        else this.commandNode(body, src, inner, depth, inh);
        return;
      }
      case 'Coproc': {
        const inner = [...frames, this.frame('coproc')];
        const body = node.body;
        if (body.type === 'CompoundList') this.list(body, src, inner, depth, inh);
        else this.commandNode(body, src, inner, depth, inh);
        return;
      }
    }
  }

  /** Walk command/process substitutions anywhere below a node (words, tests, arithmetic, here-docs). */
  substitutions(node: SyntaxNode, src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    if (node.type === 'Word' && node.parts === undefined) return; // plain literal: nothing inside
    forEachChild(node, (child) => {
      if (child.type === 'CommandExpansion' || child.type === 'ArithmeticCommandExpansion') {
        if (child.script !== undefined) this.script(child.script, src, [...frames, this.frame('substitution')], depth, inh);
      } else if (child.type === 'ProcessSubstitution') {
        if (child.script !== undefined) this.script(child.script, src, [...frames, this.frame('process-substitution')], depth, inh);
      } else {
        this.substitutions(child, src, frames, depth, inh);
      }
    });
  }

  simple(cmd: Command, src: string, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    // Expansions run before the command itself.
    if (cmd.name !== undefined) this.substitutions(cmd.name, src, frames, depth, inh);
    for (const item of cmd.prefix) this.substitutions(item, src, frames, depth, inh);
    for (const item of cmd.suffix) this.substitutions(item, src, frames, depth, inh);

    const words: ShellWord[] = [];
    if (cmd.name !== undefined) words.push(cookWord(cmd.name));
    for (const arg of cmd.args) {
      if (arg.type === 'Word') words.push(cookWord(arg));
      else words.push(cookAssignmentWord(arg));
    }
    const base: Base = {
      assignments: [],
      redirects: [],
      text: src.slice(cmd.pos, cmd.end),
      stdinScript: undefined,
    };
    for (const item of cmd.prefix) if (item.type === 'Assignment') base.assignments.push(cookAssignment(item));
    for (const r of cmd.redirects) {
      base.redirects.push(cookRedirect(r));
      if (r.type === 'HereDoc') {
        base.stdinScript = r.body.text;
        // An unquoted delimiter means the body is expanded: `$(curl ...)` inside runs first.
        if (r.body.parts !== undefined && partsDynamic(r.body.parts)) base.stdinDynamic = true;
      } else if (r.type === 'HereString' && r.target !== undefined) {
        base.stdinScript = r.target.value;
        if (cookWord(r.target).dynamic) base.stdinDynamic = true;
      }
    }
    this.effective(words, 0, base, frames, depth, inh);
  }

  /**
   * Peel wrappers off words[start..] and record what finally runs, descending into nested scripts.
   * Three decisions, in order, each of which may record the command itself and end here: which
   * wrappers and runners stand in front of the program (peelWrappers), what a command-line git
   * alias turns it into (gitAlias), and whether the program runs a script of its own (runsNested).
   */
  effective(words: ShellWord[], start: number, base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    const p: Peeling = {
      words,
      start,
      wrappers: inh.wrappers,
      sudo: inh.sudo,
      argsFromStdin: inh.argsFromStdin,
      assignments: base.assignments,
      chdir: undefined,
    };
    if (this.peelWrappers(p, base, frames, depth, inh)) return;
    if (this.gitAlias(p, base, frames, depth)) return;
    const argv = p.start === 0 ? p.words : p.words.slice(p.start);
    const here = inheritedOf(p);
    const b: Base = p.assignments === base.assignments ? base : { ...base, assignments: p.assignments };
    const head = argv[0];
    const name = head === undefined || head.dynamic ? '' : basename(head.value);
    if (this.runsNested(name, argv, b, frames, depth, here)) return;
    // A command whose name is only known at run time could be anything: callers should fail closed.
    if (head !== undefined && head.dynamic) this.complete = false;
    const cmd = this.push(argv, b, frames, depth, here, undefined);
    if (p.chdir !== undefined) cmd.chdir = { path: p.chdir.value, dynamic: p.chdir.dynamic };
  }

  /**
   * Peel, in `p`, the wrappers (sudo, env, timeout…) and runners (npx, docker exec, uv run…) in
   * front of the program. True when a wrapper's own hand-off (a `-c` string, known xargs items,
   * an opaque wrapper) has recorded the command; false when p now starts at the program.
   */
  peelWrappers(p: Peeling, base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited): boolean {
    while (p.start < p.words.length) {
      const head = p.words[p.start]!;
      if (head.dynamic) {
        // `$(echo rm) -rf /`: a read-only command printing literal text names the command.
        const evaluated = evaluateHead(head);
        if (evaluated === undefined) return false;
        p.words = [...p.words.slice(0, p.start), ...evaluated, ...p.words.slice(p.start + 1)];
        continue;
      }
      const wrapperName = basename(head.value);
      // `env -S 'PATH=/bin git reset --hard'`: the string is split into words in place.
      if (wrapperName === 'env') p.words = spliceEnvSplit(p.words, p.start) ?? p.words;
      const spec = WRAPPERS[wrapperName];
      if (spec === undefined) {
        if (!peelRunner(p, wrapperName)) return false;
        continue;
      }
      const step = this.peelKnownWrapper(p, spec, wrapperName, base, frames, depth, inh);
      if (step !== 'peeled') return step === 'recorded';
    }
    return false;
  }

  /** One wrapper with a spec (WRAPPERS): peel it into `p`, or record what it hands its command to. */
  peelKnownWrapper(
    p: Peeling,
    spec: WrapperSpec,
    wrapperName: string,
    base: Base,
    frames: readonly NestingFrame[],
    depth: number,
    inh: Inherited,
  ): 'peeled' | 'recorded' | 'stop' {
    const { words, start } = p;
    const peeled = peelWrapper(spec, wrapperName, words, start);
    if (peeled === undefined) {
      // `… | parallel`: with no command, each input line is one.
      if (wrapperName === 'parallel' && this.stdinArgs('parallel', words, start, words.length, base, frames, depth, inheritedOf(p))) return 'recorded';
      return 'stop';
    }
    if (wrapperName === 'env') p.chdir = envChdir(words, start, peeled.start) ?? p.chdir;
    p.wrappers = [...p.wrappers, wrapperName];
    p.sudo ||= spec.sudo === true;
    p.argsFromStdin ||= spec.argsFromStdin === true;
    if (peeled.assignments.length > 0) p.assignments = [...p.assignments, ...peeled.assignments];
    if (peeled.opaque !== undefined) {
      this.opaque(words.slice(start), { ...base, assignments: p.assignments }, frames, depth, inheritedOf(p), peeled.opaque);
      return 'recorded';
    }
    if (this.wrapperHandsOff(p, wrapperName, peeled.start, base, frames, depth, inh)) return 'recorded';
    p.start = peeled.start;
    return 'peeled';
  }

  /**
   * A peeled wrapper that does not simply run the words after it: `flock FILE -c CMD` runs a shell
   * string, xargs/parallel with known items run the commands those make, and `parallel CMD ::: args`
   * takes the words after `:::` as data (cut from `p`). True when the command is recorded here.
   */
  wrapperHandsOff(p: Peeling, wrapperName: string, bodyStart: number, base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited): boolean {
    const { words, start } = p;
    if (DASH_C_RUNNERS.has(wrapperName) && /^(?:-c|--command)$/.test(words[bodyStart]?.value ?? '')) {
      const body = words[bodyStart + 1];
      const inner = inheritedOf(p);
      if (body === undefined || body.dynamic) {
        this.opaque(
          words.slice(start),
          { ...base, assignments: p.assignments },
          frames,
          depth,
          inner,
          `${wrapperName} -c runs a command that is not known statically`,
        );
        return true;
      }
      this.reparse(body.value, [...frames, this.frame('shell-c')], depth + 1, inner, base.text);
      return true;
    }
    // `echo / | xargs -I{} bash -c 'rm -rf {}'`, `parallel ::: 'rm -rf /'`: what the items make of the body.
    // The commands made from known items take no arguments from stdin: the enclosing flag, not xargs's own.
    if (
      (wrapperName === 'xargs' || wrapperName === 'parallel') &&
      this.stdinArgs(wrapperName, words, start, bodyStart, { ...base, assignments: p.assignments }, frames, depth, {
        sudo: p.sudo,
        argsFromStdin: inh.argsFromStdin,
        wrappers: p.wrappers,
      })
    )
      return true;
    if (wrapperName !== 'parallel') return false;
    const cut = words.findIndex((w, i) => i >= bodyStart && (w.value === ':::' || w.value === '::::' || w.value === ':::+'));
    if (cut !== -1) p.words = words.slice(0, cut);
    // A single-word body is run by a shell: `parallel 'rm -rf {}'`.
    const body = p.words[bodyStart];
    if (p.words.length === bodyStart + 1 && /\s/.test(body!.value) && !body!.dynamic) {
      this.reparse(body!.value, [...frames, this.frame('shell-c')], depth + 1, inheritedOf(p), base.text);
      return true;
    }
    return false;
  }

  /**
   * `git -c alias.p='push --force' p`: the alias is what runs. A `!`-alias runs a shell command
   * (walked, and true: recorded); a plain one replaces the words in `p`.
   */
  gitAlias(p: Peeling, base: Base, frames: readonly NestingFrame[], depth: number): boolean {
    const head = p.words[p.start];
    if (head === undefined || head.dynamic || basename(head.value) !== 'git') return false;
    const expanded = expandGitAlias(p.words.slice(p.start));
    if (expanded === undefined) return false;
    if ('shell' in expanded) {
      this.carrier(base, frames, depth, inheritedOf(p));
      this.reparse(expanded.shell, [...frames, this.frame('shell-c')], depth + 1, { ...inheritedOf(p), wrappers: [...p.wrappers, 'git'] }, base.text);
      return true;
    }
    p.words = expanded.words;
    p.start = 0;
    return false;
  }

  /**
   * A program that runs a script or command line of its own (a shell or su's `-c`, runuser's
   * command, eval, ssh's remote command, watch, find's -exec): walk into it. True when recorded;
   * false leaves the program to be recorded as the command (`bash script.sh`, `ssh host`).
   */
  runsNested(name: string, argv: ShellWord[], b: Base, frames: readonly NestingFrame[], depth: number, here: Inherited): boolean {
    if (SHELLS.has(name) || DASH_C_RUNNERS.has(name)) return this.shellScript(name, argv, b, frames, depth, here);
    if (name === 'eval' && argv.length > 1) {
      return this.joinedScript(argv, argv.slice(1), b, frames, depth, here, here, 'eval', 'eval of a string that is not known statically');
    }
    if (name === 'ssh') {
      // `ssh host git clean -f`: the remote shell runs the rest, joined.
      const remote = sshCommand(argv);
      const inner: Inherited = { ...here, wrappers: [...here.wrappers, 'ssh'] };
      return (
        remote !== undefined &&
        this.joinedScript(argv, remote, b, frames, depth, here, inner, 'shell-c', 'ssh runs a remote command that is not known statically')
      );
    }
    if (name === 'watch') {
      // watch joins its operands and runs them with `sh -c`, repeatedly.
      const peeled = peelWrapper(WATCH, 'watch', argv, 0);
      const inner: Inherited = { ...here, wrappers: [...here.wrappers, 'watch'] };
      return (
        peeled !== undefined &&
        this.joinedScript(argv, argv.slice(peeled.start), b, frames, depth, here, inner, 'shell-c', 'watch runs a command that is not known statically')
      );
    }
    if (name === 'find') {
      this.find(argv, b, frames, depth, here);
      return true;
    }
    return false;
  }

  /** A shell's `-c` string or here-doc, su's/script's `-c`, or runuser's command after its options. */
  shellScript(name: string, argv: ShellWord[], b: Base, frames: readonly NestingFrame[], depth: number, here: Inherited): boolean {
    const body = DASH_C_RUNNERS.has(name) ? suBody(argv) : shellBody(argv, b.stdinScript, b.stdinDynamic === true);
    if (body !== undefined) {
      if (body.dynamic) {
        this.opaque(argv, b, frames, depth, here, `${name} runs a script whose text is not known statically`);
        return true;
      }
      this.carrier(b, frames, depth, here);
      const inner: Inherited = {
        sudo: here.sudo || name === 'su' || name === 'runuser',
        argsFromStdin: here.argsFromStdin,
        wrappers: [...here.wrappers, name],
      };
      this.reparse(body.value, [...frames, this.frame('shell-c')], depth + 1, inner, b.text);
      return true;
    }
    if (name !== 'runuser') return false;
    const i = runuserCommand(argv);
    if (i >= argv.length) return false;
    this.effective(argv, i, b, frames, depth, { sudo: true, argsFromStdin: here.argsFromStdin, wrappers: [...here.wrappers, 'runuser'] });
    return true;
  }

  /** A command line a program joins from its words and runs (eval, ssh, watch): opaque unless every word is known. */
  joinedScript(
    argv: ShellWord[],
    words: readonly ShellWord[],
    b: Base,
    frames: readonly NestingFrame[],
    depth: number,
    here: Inherited,
    inner: Inherited,
    kind: 'eval' | 'shell-c',
    unknown: string,
  ): true {
    if (words.some((w) => w.dynamic)) {
      this.opaque(argv, b, frames, depth, here, unknown);
      return true;
    }
    this.carrier(b, frames, depth, here);
    this.reparse(words.map((w) => w.value).join(' '), [...frames, this.frame(kind)], depth + 1, inner, b.text);
    return true;
  }

  /** `find`: the find itself, then each -exec body as its own command. */
  find(argv: ShellWord[], base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    const bodies: ShellWord[][] = [];
    let findDelete = false;
    for (let i = 1; i < argv.length; i++) {
      const v = argv[i]!.value;
      // `find . -name -delete`: the word after a predicate that takes a value is that value.
      if (v === '-delete' && !FIND_VALUE_PREDICATES.has(argv[i - 1]?.value ?? '')) findDelete = true;
      if (!FIND_EXEC.has(v)) continue;
      const body: ShellWord[] = [];
      let j = i + 1;
      for (; j < argv.length; j++) {
        const w = argv[j]!;
        if (w.value === ';' || (w.value === '+' && argv[j - 1]?.value === '{}')) break;
        // `{}` is replaced by each found path: unknown statically.
        body.push(w.value.includes('{}') ? { value: w.value, dynamic: true, glob: w.glob } : w);
      }
      if (body.length > 0) bodies.push(body);
      i = j;
    }
    const cmd = this.push(argv, base, frames, depth, inh, undefined);
    cmd.findDelete = findDelete;
    for (const body of bodies) {
      this.effective(body, 0, emptyBase(base.text), [...frames, this.frame('find-exec')], depth, inh);
    }
  }

  /**
   * xargs/parallel whose items are known (`echo / | xargs …`, `parallel CMD ::: a b`) are judged as
   * the commands they become; a shell whose script comes from unknown items is opaque. Returns
   * false to leave the command to the ordinary path (items appended from stdin, unknown).
   */
  stdinArgs(
    name: string,
    words: ShellWord[],
    at: number,
    bodyStart: number,
    base: Base,
    frames: readonly NestingFrame[],
    depth: number,
    inh: Inherited,
  ): boolean {
    const parallel = name === 'parallel';
    const separator = /^(?::::?\+?|::::)$/;
    let end = words.length;
    let items: string[] | undefined;
    if (parallel) {
      const cut = words.findIndex((w, i) => i >= bodyStart && separator.test(w.value));
      if (cut !== -1) {
        end = cut;
        const data = words.slice(cut).filter((w) => !separator.test(w.value));
        // `::::` names files of arguments: not known here.
        const fromFiles = words.slice(cut).some((w) => w.value === '::::');
        items = fromFiles || data.some((w) => w.dynamic) ? undefined : data.slice(0, MAX_ITEMS).map((w) => w.value);
      }
    }
    const replace = parallel ? '{}' : xargsReplace(words, at + 1, bodyStart);
    if (items === undefined && end === words.length) {
      const text = this.upstreamText(frames);
      if (text !== undefined) items = splitItems(text, parallel || replace !== undefined);
    }
    const body = words.slice(bodyStart, end);
    const known: Inherited = { ...inh, wrappers: [...inh.wrappers, name] };
    const run = (argv: ShellWord[]): void => {
      // parallel hands a one-word body to a shell: `parallel 'rm -rf {}'`.
      if (parallel && argv.length === 1 && /\s/.test(argv[0]!.value) && !argv[0]!.dynamic)
        this.reparse(argv[0]!.value, [...frames, this.frame('shell-c')], depth + 1, known, base.text);
      else this.effective(argv, 0, base, frames, depth, known);
    };
    const shellFromStdin = (argv: readonly ShellWord[]): boolean => {
      const head = argv[0];
      if (head === undefined || head.dynamic || !SHELLS.has(basename(head.value))) return false;
      const script = shellBody(argv, undefined);
      const dashC = argv.slice(1).some((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value));
      return (script === undefined && dashC) || (script !== undefined && replace !== undefined && script.value.includes(replace));
    };
    if (items !== undefined) {
      if (items.length === 0) return false;
      if (body.length === 0) {
        // parallel runs each item as a command line; xargs echoes them.
        if (parallel) for (const item of items) this.reparse(item, [...frames, this.frame('shell-c')], depth + 1, known, base.text);
        return parallel;
      }
      if (replace !== undefined && body.some((w) => w.value.includes(replace))) {
        for (const item of items) run(body.map((w) => (w.value.includes(replace) ? { ...w, value: w.value.split(replace).join(item) } : w)));
        return true;
      }
      if (parallel) {
        for (const item of items) run([...body, literalWord(item)]);
        return true;
      }
      // `echo 'rm -rf /' | xargs bash -c`: the first item is the script; judge the whole line as one.
      if (shellFromStdin(body)) {
        this.reparse(items.join(' '), [...frames, this.frame('shell-c')], depth + 1, known, base.text);
        return true;
      }
      this.effective([...body, ...items.map(literalWord)], 0, base, frames, depth, known);
      return true;
    }
    if (parallel && body.length === 0) {
      this.opaque(words.slice(at), base, frames, depth, known, 'parallel runs command lines it reads from stdin');
      return true;
    }
    if (shellFromStdin(body)) {
      this.opaque(words.slice(at), base, frames, depth, known, `${name} hands a shell command text read from stdin`);
      return true;
    }
    return false;
  }

  /** What the element before this one in the pipeline prints, when it is a literal echo/printf. */
  upstreamText(frames: readonly NestingFrame[]): string | undefined {
    let frame: NestingFrame | undefined;
    for (let i = frames.length - 1; i >= 0 && frame === undefined; i--) if (frames[i]!.kind === 'pipeline') frame = frames[i];
    if (frame === undefined || frame.index === undefined || frame.index === 0) return undefined;
    const index = frame.index - 1;
    const previous = this.commands.filter((c) => {
      const last = c.nesting[c.nesting.length - 1];
      return last !== undefined && last.kind === 'pipeline' && last.id === frame.id && last.index === index;
    });
    return previous.length === 1 ? printedText(previous[0]!) : undefined;
  }

  /** Keep redirections/assignments of a command that was replaced by the script it runs. */
  carrier(base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited): void {
    if (base.redirects.length === 0) return;
    this.push([], { ...base, assignments: [] }, [...frames, this.frame('redirected')], depth, inh, undefined);
  }

  opaque(argv: ShellWord[], base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited, why: string): void {
    this.complete = false;
    this.push(argv, base, frames, depth, inh, why);
  }

  push(argv: readonly ShellWord[], base: Base, frames: readonly NestingFrame[], depth: number, inh: Inherited, opaque: string | undefined): SimpleCommand {
    const head = argv[0];
    const cmd: SimpleCommand = {
      argv: argv.map((w) => w.value),
      dynamic: argv.map((w) => w.dynamic),
      glob: argv.map((w) => w.glob),
      name: head === undefined ? '' : basename(head.value),
      assignments: base.assignments,
      redirects: base.redirects,
      wrappers: [...inh.wrappers],
      sudo: inh.sudo,
      argsFromStdin: inh.argsFromStdin,
      findDelete: false,
      nesting: frames,
      text: base.text,
      depth,
    };
    if (opaque !== undefined) cmd.opaque = opaque;
    if (base.stdinScript !== undefined) cmd.stdin = base.stdinScript;
    this.commands.push(cmd);
    return cmd;
  }
}

function emptyBase(text: string): Base {
  return { assignments: [], redirects: [], text, stdinScript: undefined };
}

/**
 * The script a shell invocation runs: the word after `-c` (options may cluster, `-lc`), or the
 * here-doc on stdin when no script file is named. Undefined for `bash script.sh` / plain `bash`.
 */
function shellBody(argv: readonly ShellWord[], stdinScript: string | undefined, stdinDynamic = false): ShellWord | undefined {
  let sawC = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (v === '--' || v === '-') {
      return sawC ? argv[i + 1] : undefined;
    }
    if ((v.startsWith('-') || v.startsWith('+')) && v.length > 1 && !w.dynamic) {
      if (v.startsWith('--')) {
        if (v === '--rcfile' || v === '--init-file') i++;
        continue;
      }
      if (v.slice(1).includes('c')) sawC = true;
      if (/[oO]/.test(v.slice(1))) i++; // `-o pipefail`: the option name is the next word
      continue;
    }
    return sawC ? w : undefined; // first operand: the -c string, or a script file
  }
  if (!sawC && stdinScript !== undefined) return { value: stdinScript, dynamic: stdinDynamic, glob: false };
  return undefined;
}

/** `env -C DIR` / `env --chdir=DIR`: the wrapped command runs somewhere else. */
function envChdir(words: readonly ShellWord[], at: number, end: number): ShellWord | undefined {
  let found: ShellWord | undefined;
  for (let i = at + 1; i < end; i++) {
    const v = words[i]!.value;
    if (v === '-C' || v === '--chdir') found = words[i + 1];
    else if (v.startsWith('--chdir=')) found = { ...words[i]!, value: v.slice('--chdir='.length) };
    else if (/^-[^-]*C./.test(v)) found = { ...words[i]!, value: v.slice(v.indexOf('C') + 1) };
  }
  return found;
}

/**
 * A runner that is no WRAPPERS entry: `docker exec db psql …`, `npx prisma@5 migrate reset`
 * (PROGRAM_RUNNERS: judge the program it starts), `uv run CMD` or a `*wrap*` prefix (runnerStart).
 * Peeled into `p`; false when this word is the program itself.
 */
function peelRunner(p: Peeling, name: string): boolean {
  const program = programStart(name, p.words, p.start);
  if (program !== undefined) {
    p.wrappers = [...p.wrappers, program.label];
    if (program.binary !== undefined) p.words = [...p.words.slice(0, program.start), literalWord(program.binary), ...p.words.slice(program.start + 1)];
    p.start = program.start;
    return true;
  }
  const next = runnerStart(name, p.words, p.start);
  if (next === undefined) return false;
  p.wrappers = [...p.wrappers, name];
  p.start = next;
  return true;
}

/** `runuser -u USER [--] CMD...`: where CMD starts (argv.length when there is none). */
function runuserCommand(argv: readonly ShellWord[]): number {
  let i = 1;
  while (i < argv.length && argv[i]!.value.startsWith('-') && argv[i]!.value !== '--')
    i += /^-[ugG]$|^--(?:user|group|supp-group)$/.test(argv[i]!.value) ? 2 : 1;
  if (argv[i]?.value === '--') i++;
  return i;
}

/** Runners whose first word is a package, not yet a binary name (`npx prisma@5` runs `prisma`). */
const PACKAGE_LABELS = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'pnpm dlx', 'yarn dlx', 'npm x', 'pipx run']);

/**
 * Where the program starts behind a program runner (PROGRAM_RUNNERS): after the subcommand path,
 * its options, the container/pod/service/image operands and a `--`. Undefined when this
 * invocation runs no program (`docker ps`, `docker run IMAGE` with the image's own command).
 */
function programStart(name: string, words: readonly ShellWord[], at: number): { start: number; label: string; binary?: string } | undefined {
  const runners = PROGRAM_RUNNERS[name];
  if (runners === undefined) return undefined;
  for (const r of runners) {
    let i = at + 1;
    const skipOptions = (): void => {
      while (i < words.length) {
        const v = words[i]!.value;
        if (v === '--' || !v.startsWith('-') || v.length < 2) return;
        if (v.startsWith('--')) i += !v.includes('=') && r.longWithValue.includes(v) ? 2 : 1;
        else {
          const k = [...v.slice(1)].findIndex((c) => r.shortWithValue.includes(c));
          i += k !== -1 && k === v.length - 2 ? 2 : 1;
        }
      }
    };
    let matched = true;
    for (const part of r.path) {
      skipOptions();
      if (words[i]?.value !== part) {
        matched = false;
        break;
      }
      i++;
    }
    if (!matched) continue;
    skipOptions();
    for (let n = 0; n < r.positionals && i < words.length && words[i]!.value !== '--'; n++) {
      i++;
      skipOptions();
    }
    if (words[i]?.value === '--') i++;
    if (i >= words.length || words[i]!.dynamic) return undefined;
    const label = [name, ...r.path].join(' ');
    const word = words[i]!.value;
    const binary = PACKAGE_LABELS.has(label) && word.includes('@') ? packageBinary(word) : undefined;
    return binary === undefined ? { start: i, label } : { start: i, label, binary };
  }
  return undefined;
}

/**
 * Where the command starts behind a runner that is not a plain wrapper: `uv run CMD`,
 * `op run -- CMD`, `aws-vault exec PROFILE -- CMD`, or an unknown `*wrap*` prefix.
 */
function runnerStart(name: string, words: readonly ShellWord[], at: number): number | undefined {
  const subs = SUBCOMMAND_RUNNERS[name];
  let i = at + 1;
  if (subs !== undefined) {
    const keys = Object.keys(subs);
    if (keys.length > 0) {
      // Global options before the subcommand (`uv --quiet run`).
      while (i < words.length && words[i]!.value.startsWith('-')) i++;
      const sub = words[i]?.value;
      if (sub === undefined || !keys.includes(sub)) return undefined;
      i++;
      const dd = words.findIndex((w, k) => k >= i && w.value === '--');
      if (dd !== -1) return dd + 1 < words.length ? dd + 1 : undefined;
      i += subs[sub]!;
    } else {
      const dd = words.findIndex((w, k) => k > at && w.value === '--');
      if (dd !== -1) return dd + 1 < words.length ? dd + 1 : undefined;
    }
  } else if (!looksLikeWrapper(name)) {
    return undefined;
  }
  // Skip options, NAME=value, and option values that cannot be a command (`--times 3`, `-t 10s`).
  while (
    i < words.length &&
    (words[i]!.value.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.value) || /^\d+(?:\.\d+)?[smhd%]?$/.test(words[i]!.value))
  ) {
    if (words[i]!.value === '--') {
      i++;
      break;
    }
    i++;
  }
  return i < words.length ? i : undefined;
}

/**
 * `git -c alias.NAME=VALUE NAME args`: the argv with the alias applied, or the shell command
 * a `!`-alias runs. Only aliases defined on the command line are visible here.
 */
function expandGitAlias(argv: ShellWord[]): { words: ShellWord[] } | { shell: string } | undefined {
  const aliases = new Map<string, string>();
  let i = 1;
  while (i < argv.length) {
    const v = argv[i]!.value;
    if (v === '-c' && argv[i + 1] !== undefined) {
      const m = /^alias\.([^=]+)=(.*)$/s.exec(argv[i + 1]!.value);
      if (m) aliases.set(m[1]!.toLowerCase(), m[2]!);
      i += 2;
    } else if (v === '-C' || v === '--git-dir' || v === '--work-tree' || v === '--namespace' || v === '--exec-path' || v === '--config-env') i += 2;
    else if (v.startsWith('-')) i++;
    else break;
  }
  if (aliases.size === 0 || i >= argv.length) return undefined;
  const value = aliases.get(argv[i]!.value.toLowerCase());
  if (value === undefined) return undefined;
  const rest = argv.slice(i + 1).map((w) => w.value);
  if (value.startsWith('!')) return { shell: [value.slice(1), ...rest.map(quote)].join(' ') };
  const replaced = value.split(/\s+/).filter(Boolean).map(literalWord);
  return { words: [...argv.slice(0, i), ...replaced, ...argv.slice(i + 1)] };
}

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** ssh options that take a value (`-p 22`, `-o X=Y`, `-i key`). */
const SSH_VALUE = 'BbcDEeFIiJLlmOoPpQRSWw';

/** The remote command of `ssh [opts] host cmd…`, when there is one. */
function sshCommand(argv: readonly ShellWord[]): ShellWord[] | undefined {
  let i = 1;
  while (i < argv.length && argv[i]!.value.startsWith('-') && argv[i]!.value.length > 1) {
    const v = argv[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    // In a cluster (`-tp 22`, `-p22`) the first letter taking a value takes the rest, or the next word.
    const k = [...v.slice(1)].findIndex((c) => SSH_VALUE.includes(c));
    i += k !== -1 && k === v.length - 2 ? 2 : 1;
  }
  const rest = argv.slice(i + 1);
  return rest.length > 0 ? rest : undefined;
}

/** `su [-] [user] -c CMD` / `--command=CMD`, `script -qc CMD`, `runuser -u U -c CMD`. */
function suBody(argv: readonly ShellWord[]): ShellWord | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (w.value === '-c' || w.value === '--command' || (!w.dynamic && /^-[A-Za-z]+c$/.test(w.value))) return argv[i + 1];
    if (w.value.startsWith('--command=')) return { ...w, value: w.value.slice('--command='.length) };
  }
  return undefined;
}

function cookAssignment(a: import('unbash').Assignment): ShellAssignment {
  if (a.value.type === 'Word') {
    const w = cookWord(a.value);
    return { name: a.name, value: w.value, dynamic: w.dynamic };
  }
  const elements = a.value.elements.map(cookWord);
  return { name: a.name, value: `(${elements.map((e) => e.value).join(' ')})`, dynamic: elements.some((e) => e.dynamic) };
}

/** `export A=1` style arguments become the single word `A=1`. */
function cookAssignmentWord(a: import('unbash').Assignment): ShellWord {
  const cooked = cookAssignment(a);
  return { value: `${cooked.name}${a.append === true ? '+=' : '='}${cooked.value}`, dynamic: cooked.dynamic, glob: false };
}

function cookRedirect(r: Redirection): ShellRedirect {
  let target: ShellWord;
  if (r.type === 'HereDoc') target = literalWord(r.delimiter?.value ?? '');
  else target = r.target === undefined ? literalWord('') : cookWord(r.target);
  const out: ShellRedirect = { op: r.operator, target: target.value, dynamic: target.dynamic, glob: target.glob };
  if (r.descriptor?.type === 'FileDescriptor') out.fd = r.descriptor.value;
  return out;
}

/** Parse `source` once and list every simple command that could run, in execution order. */
export function analyzeCommand(source: string): ShellAnalysis {
  const walker = new Walker();
  const parsed = parse(source);
  const fixed = parsed.errors !== undefined && parsed.errors.length > 0 ? recover(source) : undefined;
  if (fixed !== undefined) walker.script(fixed.script, fixed.source, NO_FRAMES, 0, ROOT);
  else walker.script(parsed, source, NO_FRAMES, 0, ROOT);
  return { commands: walker.commands, errors: walker.errors, complete: walker.complete };
}

/**
 * A line the shell refuses to run (`&& git reset --hard`, `echo 'unterminated`) read as the
 * nearest line it would run: leading operators dropped, an open quote closed. What that line
 * does is a superset of what the refused one does (nothing), so judging it fails closed.
 */
function recover(source: string): { script: ParsedScript; source: string } | undefined {
  const stripped = source.replace(/^\s*(?:(?:&&|\|\||\|&|\||&|;)\s*)+/, '');
  for (const candidate of [stripped, `${stripped}'`, `${stripped}"`, `${stripped}\``]) {
    if (candidate === source) continue;
    const script = parse(candidate);
    if (script.errors === undefined || script.errors.length === 0) return { script, source: candidate };
  }
  return undefined;
}

/**
 * One normalized string per effective simple command (`argv.join(' ')` after unwrapping), for
 * glob-style gate patterns such as `gh issue close*`. When argv[0] is a path (`/usr/bin/gh`) the
 * basename form is listed too, so a path cannot dodge a pattern. Duplicates are dropped.
 */
export function commandsForMatching(source: string): string[] {
  return matchingStrings(analyzeCommand(source));
}

/** commandsForMatching for an analysis the caller already has. */
export function matchingStrings(analysis: ShellAnalysis): string[] {
  const out = new Set<string>();
  for (const cmd of analysis.commands) {
    if (cmd.argv.length === 0) continue;
    const joined = cmd.argv.join(' ');
    out.add(joined);
    if (cmd.name !== cmd.argv[0]) out.add(cmd.name + joined.slice(cmd.argv[0]!.length));
  }
  return [...out];
}
