// Shapes shared by the shell analysers: one flattened, wrapper-free view of a command line.

/** One shell word after quote removal, plus what static analysis cannot know about it. */
export interface ShellWord {
  /** Cooked text: quotes removed, escapes applied; expansions kept as written (`$X`, `$(..)`). */
  value: string;
  /** Contains a parameter/arithmetic expansion or a command/process substitution: real value unknown. */
  dynamic: boolean;
  /** Contains an unquoted glob or brace expansion: may stand for zero, one or many other words. */
  glob: boolean;
}

/** Where a simple command sits; frames are listed outermost first on every command. */
export type NestingKind =
  | 'pipeline' // element `index` of a multi-command pipeline (runs in a subshell)
  | 'and-or' // element `index` of an `a && b || c` list; `operator` is the one before it
  | 'background' // statement ended with `&`
  | 'subshell' // ( ... )
  | 'group' // { ...; }
  | 'substitution' // $( ... ) or backticks
  | 'process-substitution' // <( ... ) or >( ... )
  | 'if'
  | 'while'
  | 'until'
  | 'for'
  | 'select'
  | 'case'
  | 'function' // body of a function definition (runs only when called); `name` is set
  | 'coproc'
  | 'redirected' // synthetic carrier for redirections of a compound command or an unwrapped shell
  | 'shell-c' // body of `bash|sh|zsh|dash|ksh -c '...'`, `su -c '...'`, a here-doc fed to a shell, or `watch ...`
  | 'eval' // body of `eval '...'`
  | 'find-exec'; // body of `find ... -exec|-execdir|-ok|-okdir ... ;`

/** One level of nesting. Frames are shared between the commands they contain. */
export interface NestingFrame {
  kind: NestingKind;
  /** Unique within one analysis; elements of the same pipeline or list share it. */
  id: number;
  /** Position inside a pipeline or and-or list. */
  index?: number;
  /** For 'and-or': the operator joining this element to the previous one. */
  operator?: '&&' | '||';
  /** For 'function': the function's name. */
  name?: string;
  /** Runs in a child process: `cd`, variable changes etc. do not leak out of it. */
  isolated: boolean;
}

/** `NAME=value` given to a command (prefix assignment, or `env NAME=value`, `sudo NAME=value`). */
export interface ShellAssignment {
  name: string;
  value: string;
  dynamic: boolean;
}

/** A redirection on a simple command (or on a compound command, via a 'redirected' carrier). */
export interface ShellRedirect {
  op: '>' | '>>' | '<' | '<>' | '<&' | '>&' | '>|' | '&>' | '&>>' | '<<' | '<<-' | '<<<';
  /** Explicit file descriptor (`2>`), when given as a number. */
  fd?: number;
  /** Cooked target word; for here-docs the delimiter, for here-strings the string. */
  target: string;
  dynamic: boolean;
  glob: boolean;
}

/** One simple command that could run, after wrappers (`sudo`, `env`, `xargs`...) were peeled off. */
export interface SimpleCommand {
  /** Effective argv; empty for bare assignments/redirections and 'redirected' carriers. */
  argv: string[];
  /** Parallel to argv: which words have statically unknown values. */
  dynamic: boolean[];
  /** Parallel to argv: which words contain unquoted globs/braces. */
  glob: boolean[];
  /** Basename of argv[0] (`/usr/bin/rm` → `rm`), '' when argv is empty. */
  name: string;
  assignments: ShellAssignment[];
  redirects: ShellRedirect[];
  /** Wrapper commands peeled off, outermost first (e.g. `['sudo', 'env']`). */
  wrappers: string[];
  /** Runs under sudo/doas (directly or inherited from an enclosing `sudo bash -c`). */
  sudo: boolean;
  /** Extra arguments arrive on stdin (xargs), so argv is incomplete. */
  argsFromStdin: boolean;
  /** A `find` command carrying `-delete`. */
  findDelete: boolean;
  /** Text fed on stdin by a here-doc or here-string, when there is one. */
  stdin?: string;
  /** `env --chdir DIR cmd`: the directory the command runs in, relative to the caller's. */
  chdir?: { path: string; dynamic: boolean };
  /** Set when a body that will run could not be analysed (dynamic `bash -c "$X"`, `eval "$x"`, depth). */
  opaque?: string;
  nesting: readonly NestingFrame[];
  /** Source text of the originating simple command (in the string it was parsed from). */
  text: string;
  /** How many string re-parses (`bash -c`, `eval`) deep this command was found. */
  depth: number;
}

/** A parse error, with the text that was being parsed when it occurred. */
export interface ShellParseError {
  message: string;
  pos: number;
  depth: number;
}

/** Result of analysing one command line. */
export interface ShellAnalysis {
  commands: SimpleCommand[];
  errors: ShellParseError[];
  /**
   * False when anything could not be parsed or analysed (parse errors, dynamic `bash -c`/`eval`
   * bodies, runaway nesting, a command name only known at run time); gates should fail closed.
   */
  complete: boolean;
}
