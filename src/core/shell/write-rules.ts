// Per-command knowledge of which operands a command writes: the table writes.ts consults.
import { type OptionShape, type ParsedArgs, gitSubcommandIndex, parseArgs } from './args.js';
import type { SimpleCommand } from './types.js';

/** Collects what one command writes; paths are as written, cwd is applied by the caller. */
export interface WriteSink {
  /** A path this command may create/modify/delete; argv index lets the sink check dynamic/glob. */
  path(path: string, via: string, argvIndex?: number): void;
  /** The command may rewrite any file under this directory (`git stash`, `git pull`): judged by the scope covering it all. */
  tree(dir: string, via: string, git?: GitMove): void;
  /** Writes something we cannot name statically. */
  unknown(why: string): void;
  /** Prefix for paths of this command only (`git -C dir`, `npm --prefix dir`, `tar -C dir`). */
  within(dir: string, argvIndex?: number): void;
}

export type WriteExtractor = (cmd: SimpleCommand, sink: WriteSink) => void;

/**
 * A git command that moves the work tree between states git can name, so the
 * caller (who may run git) can list exactly the files it changes: what a
 * stash saves, what a stash entry restores, what differs from HEAD to a ref.
 */
export type GitMove = { op: 'stash-push'; untracked: boolean } | { op: 'stash-apply'; entry: string } | { op: 'to-ref'; ref: string };

/** All operands are written (after options with values are skipped); `skip` drops leading operands. */
export function operands(shape: OptionShape, skip: (args: ParsedArgs) => number = () => 0): WriteExtractor {
  return (cmd, sink) => {
    const args = parseArgs(cmd.argv, 1, shape);
    const from = skip(args);
    for (let k = from; k < args.operands.length; k++) sink.path(args.operands[k]!, cmd.name, args.operandIndex[k]);
  };
}

/** cp/mv/ln/install/rsync: the destination is -t DIR or the last operand; mv also removes its sources. */
function copyLike(shape: OptionShape, opts: { sourcesToo?: boolean; remoteAware?: boolean } = {}): WriteExtractor {
  return (cmd, sink) => {
    const args = parseArgs(cmd.argv, 1, shape);
    const targetDir = args.values.get('t')?.[0] ?? args.values.get('--target-directory')?.[0];
    const ops = args.operands;
    let sources = ops;
    if (targetDir !== undefined) {
      sink.path(targetDir, cmd.name, cmd.argv.indexOf(targetDir));
    } else if (ops.length === 1 && cmd.name === 'ln') {
      // `ln -s /etc/passwd` creates ./passwd
      const only = ops[0]!;
      sink.path(only.slice(only.replace(/\/+$/, '').lastIndexOf('/') + 1) || only, cmd.name, args.operandIndex[0]);
      return;
    } else if (cmd.name === 'install' && (args.short.has('d') || args.long.has('--directory'))) {
      sources = [];
      for (let k = 0; k < ops.length; k++) sink.path(ops[k]!, cmd.name, args.operandIndex[k]);
    } else if (ops.length >= 2) {
      const dest = ops[ops.length - 1]!;
      sources = ops.slice(0, -1);
      if (!(opts.remoteAware === true && isRemote(dest))) sink.path(dest, cmd.name, args.operandIndex[ops.length - 1]);
    }
    if (opts.sourcesToo === true) for (let k = 0; k < sources.length; k++) sink.path(sources[k]!, `${cmd.name} (source)`, args.operandIndex[k]);
  };
}

/** `host:path` / `user@host:path` / `rsync://`: not on this machine. */
function isRemote(path: string): boolean {
  return /^[^/]*:/.test(path) && !path.startsWith('./');
}

const sedLike =
  (flagLetter: string): WriteExtractor =>
  (cmd, sink) => {
    const perl = cmd.name === 'perl';
    if (!perl) sedScriptWrites(cmd, sink);
    const args = parseArgs(
      cmd.argv,
      1,
      perl ? { shortWithValue: 'eEIMm' } : { shortWithValue: 'efl', longWithValue: ['--expression', '--file', '--line-length'] },
    );
    // `-i.bak` clusters parse as i,.,b,a,k: the letter is enough.
    if (!args.short.has(flagLetter) && !args.long.has('--in-place')) {
      if (perl) interpreter(cmd, sink);
      return;
    }
    const hasScript = args.values.has('e') || args.values.has('E') || args.values.has('f') || args.values.has('--expression') || args.values.has('--file');
    const first = hasScript ? 0 : 1; // without -e the first operand is the script
    for (let k = first; k < args.operands.length; k++) sink.path(args.operands[k]!, `${cmd.name} -i`, args.operandIndex[k]);
    if (args.operands.length <= first) sink.unknown(`${cmd.name} -i without a file operand`);
  };

/** Lockfiles/manifests a package manager rewrites, by tool. */
const PACKAGE_FILES: Readonly<Record<string, readonly string[]>> = {
  npm: ['package.json', 'package-lock.json', 'node_modules'],
  pnpm: ['package.json', 'pnpm-lock.yaml', 'node_modules'],
  yarn: ['package.json', 'yarn.lock', 'node_modules'],
  bun: ['package.json', 'bun.lock', 'bun.lockb', 'node_modules'],
  cargo: ['Cargo.toml', 'Cargo.lock'],
  go: ['go.mod', 'go.sum'],
  poetry: ['pyproject.toml', 'poetry.lock'],
  uv: ['pyproject.toml', 'uv.lock', '.venv'],
  bundle: ['Gemfile', 'Gemfile.lock'],
  composer: ['composer.json', 'composer.lock', 'vendor'],
};

/** Subcommands that change dependencies, by tool. */
const PACKAGE_SUBS: Readonly<Record<string, readonly string[]>> = {
  npm: ['install', 'i', 'in', 'add', 'ci', 'uninstall', 'remove', 'rm', 'r', 'un', 'update', 'up', 'upgrade', 'dedupe', 'prune', 'link', 'pkg', 'audit'],
  pnpm: ['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'prune', 'link', 'dedupe', 'import'],
  yarn: ['install', 'add', 'remove', 'upgrade', 'up', 'dedupe', 'link', 'import'],
  bun: ['install', 'i', 'add', 'a', 'remove', 'rm', 'update', 'link'],
  cargo: ['add', 'remove', 'rm', 'update', 'generate-lockfile'],
  go: ['get', 'mod'],
  poetry: ['add', 'remove', 'install', 'update', 'lock'],
  uv: ['add', 'remove', 'sync', 'lock'],
  bundle: ['install', 'add', 'remove', 'update', 'lock'],
  composer: ['require', 'remove', 'install', 'update'],
};

const packageManager: WriteExtractor = (cmd, sink) => {
  const tool = cmd.name;
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'C', longWithValue: ['--prefix', '--dir', '--cwd', '--manifest-path', '--directory'] });
  const sub = args.operands[0];
  // `yarn` and `bundle` alone install.
  const effectiveSub = sub ?? (tool === 'yarn' || tool === 'bundle' ? 'install' : undefined);
  if (effectiveSub === undefined || !(PACKAGE_SUBS[tool] ?? []).includes(effectiveSub)) return;
  if (tool === 'go' && effectiveSub === 'mod' && !['tidy', 'edit', 'init', 'vendor'].includes(args.operands[1] ?? '')) return;
  if (tool === 'npm' && effectiveSub === 'audit' && args.operands[1] !== 'fix') return;
  if (args.short.has('g') || args.long.has('--global') || args.operands[1] === 'global' || sub === 'global') {
    sink.unknown(`${tool} ${effectiveSub} --global writes into the global package prefix`);
    return;
  }
  const dir =
    args.values.get('--prefix')?.[0] ??
    args.values.get('C')?.[0] ??
    args.values.get('--dir')?.[0] ??
    args.values.get('--cwd')?.[0] ??
    args.values.get('--directory')?.[0];
  if (dir !== undefined) sink.within(dir, cmd.argv.indexOf(dir));
  for (const file of PACKAGE_FILES[tool] ?? []) {
    if (effectiveSub === 'ci' && file !== 'node_modules') continue; // ci never edits the manifest/lockfile
    sink.path(file, `${tool} ${effectiveSub} (manifest/lockfile/dependency dir)`);
  }
};

const pip: WriteExtractor = (cmd, sink) => {
  // `uv pip install` reads like `pip install` one word later.
  const args = parseArgs(cmd.argv, cmd.name === 'uv' ? 2 : 1, {
    shortWithValue: 'rctei',
    longWithValue: ['--requirement', '--constraint', '--target', '--editable', '--index-url', '--prefix', '--root'],
  });
  const sub = args.operands[0];
  if (sub !== 'install' && sub !== 'uninstall') return;
  const target = args.values.get('t')?.[0] ?? args.values.get('--target')?.[0];
  if (target !== undefined) sink.path(target, `pip ${sub} --target`, cmd.argv.indexOf(target));
  else sink.unknown(`pip ${sub} writes into the active Python environment (site-packages)`);
};

/** Git subcommands that rewrite tracked files across the work tree. */
const GIT_WORKTREE = new Set(['reset', 'switch', 'merge', 'rebase', 'pull', 'cherry-pick', 'revert', 'am', 'stash', 'clean', 'bisect']);

const git: WriteExtractor = (cmd, sink) => {
  const at = gitSubcommandIndex(cmd.argv);
  if (at < 0) return;
  const c = cmd.argv.indexOf('-C');
  if (c > 0 && c < at && cmd.argv[c + 1] !== undefined) sink.within(cmd.argv[c + 1]!, c + 1);
  const sub = cmd.argv[at]!;
  const args = parseArgs(cmd.argv, at + 1, { shortWithValue: 'bBsm', longWithValue: ['--source', '--message'] });
  const dashdash = cmd.argv.indexOf('--', at);
  if (sub === 'checkout' || sub === 'restore') {
    if (sub === 'restore' && (args.short.has('S') || args.long.has('--staged')) && !(args.short.has('W') || args.long.has('--worktree'))) return;
    if (dashdash !== -1) {
      for (let k = dashdash + 1; k < cmd.argv.length; k++) sink.path(cmd.argv[k]!, `git ${sub}`, k);
    } else if (sub === 'restore' || args.operands.some((o) => o === '.' || o === ':/')) {
      for (let k = 0; k < args.operands.length; k++) sink.path(args.operands[k]!, `git ${sub}`, args.operandIndex[k]);
    } else if (args.operands.length > 0) {
      // `git checkout -b new` alone leaves files as they are; `git checkout main` may not.
      const ref = args.operands.length === 1 && !args.short.has('b') && !args.short.has('B') ? args.operands[0]! : undefined;
      const move: GitMove | undefined = ref === undefined ? undefined : { op: 'to-ref', ref: ref === '-' ? '@{-1}' : ref };
      sink.tree('.', `git ${sub} (switching commits rewrites tracked files anywhere in the work tree)`, move);
    }
    return;
  }
  if (sub === 'worktree' && args.operands[0] === 'add') {
    const wt = parseArgs(cmd.argv, at + 2, { shortWithValue: 'bB', longWithValue: ['--reason'] });
    if (wt.operands[0] !== undefined) sink.path(wt.operands[0], 'git worktree add', wt.operandIndex[0]);
    return;
  }
  if (sub === 'clone') {
    const cl = parseArgs(cmd.argv, at + 1, {
      shortWithValue: 'bcjmou',
      longWithValue: [
        '--branch',
        '--config',
        '--depth',
        '--origin',
        '--reference',
        '--separate-git-dir',
        '--template',
        '--upload-pack',
        '--jobs',
        '--filter',
        '--shallow-since',
        '--shallow-exclude',
      ],
    });
    const url = cl.operands[0];
    const dir =
      cl.operands[1] ??
      (url === undefined
        ? undefined
        : url
            .replace(/\/+$/, '')
            .replace(/\.git$/, '')
            .split(/[/:]/)
            .pop());
    if (dir !== undefined && dir !== '') sink.path(dir, 'git clone', cl.operands[1] !== undefined ? cl.operandIndex[1] : cl.operandIndex[0]);
    else sink.unknown('git clone without a recognisable destination');
    return;
  }
  if (sub === 'init') {
    const it = parseArgs(cmd.argv, at + 1, {
      shortWithValue: 'b',
      longWithValue: ['--template', '--separate-git-dir', '--initial-branch', '--object-format', '--shared'],
    });
    sink.path(it.operands[0] ?? '.', 'git init', it.operandIndex[0]);
    return;
  }
  if (sub === 'rm' || sub === 'mv') {
    // `git rm --cached` (and `-n`) only changes the index: the work tree keeps every file.
    if (sub === 'rm' && (args.long.has('--cached') || args.short.has('n') || args.long.has('--dry-run'))) return;
    for (let k = 0; k < args.operands.length; k++) sink.path(args.operands[k]!, `git ${sub}`, args.operandIndex[k]);
    return;
  }
  if (sub === 'apply' && !(args.long.has('--check') || args.long.has('--stat') || args.long.has('--cached'))) {
    sink.unknown('git apply writes the files named inside the patch');
    return;
  }
  if (sub === 'stash' && ['list', 'show'].includes(args.operands[0] ?? '')) return;
  if (sub === 'clean' && (args.short.has('n') || args.long.has('--dry-run'))) return;
  if (sub === 'reset' && !args.long.has('--hard') && !args.long.has('--merge') && !args.long.has('--keep')) return;
  if (sub === 'switch' && (args.short.has('c') || args.short.has('C') || args.long.has('--create')) && args.operands.length <= 1) return; // a new branch at HEAD
  if (!GIT_WORKTREE.has(sub)) return;
  let move: GitMove | undefined;
  if (sub === 'stash') {
    const action = args.operands[0];
    if (action === undefined || action === 'push' || action === 'save') {
      move = { op: 'stash-push', untracked: args.short.has('u') || args.short.has('a') || args.long.has('--include-untracked') || args.long.has('--all') };
    } else if (action === 'pop' || action === 'apply') {
      move = { op: 'stash-apply', entry: args.operands[1] ?? 'stash@{0}' };
    }
  } else if ((sub === 'switch' || sub === 'merge') && args.operands.length === 1) {
    const ref = args.operands[0]!;
    move = { op: 'to-ref', ref: ref === '-' ? '@{-1}' : sub === 'merge' ? `HEAD...${ref}` : ref };
  }
  sink.tree('.', `git ${sub} (rewrites tracked files anywhere in the work tree)`, move);
};

export const tar: WriteExtractor = (cmd, sink) => {
  // Old-style `tar xzf a.tar`: the first word is a cluster of letters without a dash.
  const argv = cmd.argv[1] !== undefined && !cmd.argv[1].startsWith('-') ? ['tar', `-${cmd.argv[1]}`, ...cmd.argv.slice(2)] : cmd.argv;
  const args = parseArgs(argv, 1, { shortWithValue: 'fCTXb', longWithValue: ['--file', '--directory', '--files-from', '--exclude-from'] });
  const dir = args.values.get('C')?.[0] ?? args.values.get('--directory')?.[0];
  if (args.short.has('x') || args.long.has('--extract') || args.long.has('--get')) {
    if (dir !== undefined && cmd.dynamic[cmd.argv.indexOf(dir)] === true) sink.path(dir, 'tar -x (extracts under this directory)', cmd.argv.indexOf(dir));
    else sink.tree(dir ?? '.', 'tar -x (extracts under this directory)');
  } else if (args.short.has('c') || args.short.has('r') || args.short.has('u') || args.long.has('--create') || args.long.has('--append')) {
    const file = args.values.get('f')?.[0] ?? args.values.get('--file')?.[0];
    if (file !== undefined && file !== '-') sink.path(file, 'tar -c', cmd.argv.indexOf(file));
  }
};

export const unzip: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'dxP' });
  if (args.short.has('l') || args.short.has('t') || args.short.has('Z') || args.short.has('p')) return;
  const dir = args.values.get('d')?.[0];
  if (dir !== undefined && cmd.dynamic[cmd.argv.indexOf(dir)] === true) sink.path(dir, 'unzip (extracts under this directory)', cmd.argv.indexOf(dir));
  else sink.tree(dir ?? '.', 'unzip (extracts under this directory)');
};

export const dd: WriteExtractor = (cmd, sink) => {
  cmd.argv.forEach((w, i) => {
    if (w.startsWith('of=')) sink.path(w.slice(3), 'dd of=', i);
  });
};

/** An option's value is the written file (`sort -o out`, `curl -o out`, `wget -O out`). */
function outputOption(shape: OptionShape, keys: readonly string[], unknownWithout?: (args: ParsedArgs) => string | undefined): WriteExtractor {
  return (cmd, sink) => {
    const args = parseArgs(cmd.argv, 1, shape);
    let found = false;
    for (const key of keys) {
      for (const v of args.values.get(key) ?? []) {
        if (v === '-') continue;
        found = true;
        sink.path(v, `${cmd.name} ${key.length === 1 ? '-' + key : key}`, cmd.argv.indexOf(v));
      }
    }
    if (!found && unknownWithout !== undefined) {
      const why = unknownWithout(args);
      if (why !== undefined) sink.unknown(why);
    }
  };
}

const CURL_SHAPE: OptionShape = {
  shortWithValue: 'oHdXuAeTrwxzKbcEmDF',
  longWithValue: [
    '--output',
    '--header',
    '--data',
    '--request',
    '--user',
    '--dump-header',
    '--cookie-jar',
    '--cookie',
    '--trace',
    '--trace-ascii',
    '--stderr',
    '--output-dir',
    '--form',
    '--data-raw',
    '--data-binary',
    '--etag-save',
    '--hsts',
    '--alt-svc',
    '--max-time',
    '--connect-timeout',
    '--retry',
  ],
};

/** `curl -O URL` / `wget URL` save under the URL's last path segment (wget: index.html for a bare host). */
function urlNames(args: ParsedArgs, sink: WriteSink, via: string, indexHtml: boolean): void {
  for (let k = 0; k < args.operands.length; k++) {
    const url = args.operands[k]!;
    const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/]+(\/[^?#]*)?/i.exec(url);
    const path = m?.[1] ?? '';
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (name !== '' && name !== '.' && name !== '..') sink.path(decodeURIComponent(name), via, args.operandIndex[k]);
    else if (indexHtml) sink.path('index.html', via);
    else sink.unknown(`${via} names the file after a URL without a file name (${url})`);
  }
}

/** Inline programs: best-effort scan for literal output files; otherwise say why we cannot tell. */
const INLINE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  python: ['c'],
  python3: ['c'],
  python2: ['c'],
  node: ['e', 'p', '--eval', '--print'],
  deno: [],
  bun: ['e', '--eval'],
  perl: ['e', 'E'],
  ruby: ['e'],
  php: ['r'],
};

/** Literal paths opened for writing in common languages: open('x','w'), writeFileSync('x', ...), File.write('x'. */
const LITERAL_WRITES: readonly RegExp[] = [
  /\bopen\(\s*(['"])(?<p>[^'"]+)\1\s*,\s*(['"])[^'"]*[wax+][^'"]*\3/g,
  /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|rmSync|unlinkSync|mkdirSync|rm|unlink|mkdir|truncate|truncateSync)\(\s*(['"`])(?<p>[^'"`]+)\1/g,
  /\bFile\.(?:write|open|delete|unlink)\(\s*(['"])(?<p>[^'"]+)\1/g,
  /\b(?:os\.(?:remove|unlink|rmdir|removedirs|truncate)|shutil\.rmtree)\(\s*(['"])(?<p>[^'"]+)\1/g,
  /\bPath\(\s*(['"])(?<p>[^'"]+)\1\s*\)\.(?:write_text|write_bytes|unlink|mkdir|touch|rmdir)/g,
  // perl two-argument open: open(FH, '>out')
  /\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*(['"])\s*(?:>>?|\+<)\s*(?<p>[^'"]+)\1/g,
  // perl three-argument open: open(my $fh, '>', 'out')
  /\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*(['"])(?:>>?|\+<|\+>)\1\s*,\s*(['"])(?<p>[^'"]+)\2/g,
];

/** Anything in inline code that may write without us seeing a literal path. */
const WRITE_HINTS =
  /\b(?:open|write|unlink|remove|rmtree|rename|replace|mkdir|makedirs|touch|truncate|system|popen|subprocess|exec|spawn|child_process|copy|move|chmod|chown|symlink|File|Path|fs|shutil|os)\b/;

export function inlineCode(cmd: SimpleCommand, sink: WriteSink): void {
  const keys = INLINE_FLAGS[cmd.name === 'python3' || cmd.name.startsWith('python') ? 'python' : cmd.name] ?? [];
  const args = parseArgs(cmd.argv, 1, { shortWithValue: keys.filter((k) => k.length === 1).join(''), longWithValue: keys.filter((k) => k.length > 1) });
  const codes: Array<{ text: string; dynamic: boolean }> = [];
  for (const key of keys) for (const text of args.values.get(key) ?? []) codes.push({ text, dynamic: cmd.dynamic[cmd.argv.indexOf(text)] === true });
  if (codes.length === 0) return; // runs a script file: not modelled
  for (const code of codes) {
    if (code.dynamic) {
      sink.unknown(`${cmd.name} runs inline code that is not known statically`);
      continue;
    }
    let literal = false;
    for (const re of LITERAL_WRITES) {
      re.lastIndex = 0;
      for (let m = re.exec(code.text); m !== null; m = re.exec(code.text)) {
        literal = true;
        sink.path(m.groups?.['p'] ?? '', `${cmd.name} inline code`);
      }
    }
    if (!literal && WRITE_HINTS.test(code.text)) sink.unknown(`${cmd.name} inline code may write files (${code.text.slice(0, 60)})`);
  }
}

/**
 * An interpreter's inline code (`python3 -c`, `node -e`) is read for the files it writes. A script
 * file it runs (`python3 scripts/gen.py`, `bash scripts/test.sh`) is not a write roz asks about: it
 * runs like `make` or `npm test`, and the Stop-time scope audit checks what it changed (docs/guard.md,
 * "Running the project's own scripts").
 */
const interpreter: WriteExtractor = (cmd, sink) => {
  inlineCode(cmd, sink);
};

/** `awk '... > "file"'`, `awk -i inplace`, gawk's `print > f`/`printf >> f`/`| "cmd"`: files named inside the program. */
export const awk: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, {
    shortWithValue: 'FvfiEl',
    longWithValue: ['--field-separator', '--assign', '--file', '--include', '--exec', '--load'],
  });
  if ((args.values.get('i') ?? []).some((v) => v === 'inplace') || (args.values.get('--include') ?? []).includes('inplace')) {
    for (let k = 1; k < args.operands.length; k++) sink.path(args.operands[k]!, `${cmd.name} -i inplace`, args.operandIndex[k]);
    return;
  }
  // `awk -f prog`: a program file, run like a project script (allowed; the scope audit sees its writes).
  if (args.values.has('f') || args.values.has('--file')) return;
  const program = args.operands[0];
  if (program === undefined) return;
  // `print > "x"`, `printf ... >> x`, `| "sh"`, `system(...)`: any output redirection inside the program.
  if (/(?:print|printf)\b[^;{}]*?(?:>>?|\|)\s*\S|\bsystem\s*\(|\bclose\s*\(/.test(program))
    sink.unknown(`${cmd.name} program writes to a file or runs a command (${program.slice(0, 60)})`);
};

/** sed's `w FILE` command and `s///w FILE` flag write files named inside the script. */
function sedScriptWrites(cmd: SimpleCommand, sink: WriteSink): void {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'efl', longWithValue: ['--expression', '--file', '--line-length'] });
  const scripts = [...(args.values.get('e') ?? []), ...(args.values.get('--expression') ?? [])];
  if (scripts.length === 0 && args.operands[0] !== undefined) scripts.push(args.operands[0]);
  // `sed -f script`: a script file, run like a project script (allowed; the scope audit sees its writes).
  if (args.values.has('f') || args.values.has('--file')) return;
  for (const script of scripts) {
    if (/(?:^|[;\n}]|\d|\$|\/)\s*[wW]\s+\S|\/[gpiImMe0-9]*w\s+\S|(?:^|[;\n])\s*e\b/.test(script))
      sink.unknown(`sed script writes a file or runs a command (${script.slice(0, 60)})`);
  }
}

/** Compilers: `-o FILE`, else a.out (linking) or FILE.o per source (`-c`). */
export const compiler: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'oIDLlUxB', longWithValue: ['--output'] });
  const out = args.values.get('o')?.[0] ?? args.values.get('--output')?.[0];
  if (out !== undefined) {
    sink.path(out, `${cmd.name} -o`, cmd.argv.indexOf(out));
    return;
  }
  if (args.short.has('E') || args.short.has('M') || args.long.has('--version') || args.long.has('--help') || args.operands.length === 0) return;
  if (args.short.has('c') || args.short.has('S')) {
    for (let k = 0; k < args.operands.length; k++) {
      const src = args.operands[k]!;
      const base = src.slice(src.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
      sink.path(`${base}.${args.short.has('S') ? 's' : 'o'}`, `${cmd.name} -c`, args.operandIndex[k]);
    }
    return;
  }
  sink.path('a.out', cmd.name);
};

/** `split [opts] [FILE [PREFIX]]`: PREFIXaa, PREFIXab... (default prefix `x`). */
export const split: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, {
    shortWithValue: 'abClnt',
    longWithValue: ['--bytes', '--lines', '--line-bytes', '--number', '--suffix-length', '--additional-suffix', '--separator', '--filter'],
  });
  if (args.long.has('--filter')) sink.unknown('split --filter runs a command per chunk');
  const prefix = args.operands[1] ?? 'x';
  sink.path(`${prefix}aa`, 'split (writes PREFIXaa, PREFIXab, …)', args.operands[1] !== undefined ? args.operandIndex[1] : undefined);
};

/** `xxd [-r] IN OUT`: the second operand is written. */
export const xxd: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'cglosnC', longWithValue: [] });
  if (args.operands[1] !== undefined) sink.path(args.operands[1], 'xxd (output file)', args.operandIndex[1]);
};

/** `zip [opts] ARCHIVE files...`: the archive; `-m` also deletes the sources. */
export const zip: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'bnPtxi@Z', longWithValue: ['--password', '--exclude', '--include', '--temp-path', '--suffixes'] });
  const archive = args.operands[0];
  if (archive === undefined || archive === '-') return;
  sink.path(/\.[^/]+$/.test(archive) ? archive : `${archive}.zip`, 'zip', args.operandIndex[0]);
  if (args.short.has('m') || args.long.has('--move'))
    for (let k = 1; k < args.operands.length; k++) sink.path(args.operands[k]!, 'zip -m (deletes the source)', args.operandIndex[k]);
};

/** Editors driven by commands (`vim -es`, `ex`, `nvim --headless -c`, `ed`): `:w other` can write anywhere. */
export const scriptedEditor: WriteExtractor = (cmd, sink) => {
  const a = cmd.argv.slice(1);
  const scripted =
    cmd.name === 'ed' ||
    cmd.name === 'ex' ||
    a.some((w) => /^-[a-zA-Z]*[esSc]$/.test(w) || w.startsWith('+') || w === '--headless' || w === '--cmd' || w === '--batch' || w === '-batch');
  if (scripted) sink.unknown(`${cmd.name} run from a script may write any file`);
};

/** `sqlite3 DB ...` writes the database file (and `.output`, `.backup`, ATTACH can write others). */
export const sqlite: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: '', longWithValue: ['-cmd', '-separator', '-newline', '-nullvalue', '-init'] });
  const db = args.operands[0];
  if (db !== undefined && db !== ':memory:' && !args.long.has('-readonly')) sink.path(db, `${cmd.name} (database file)`, args.operandIndex[0]);
  const sql = [...args.operands.slice(1), cmd.stdin ?? ''].join('\n');
  if (/^\s*\.(?:output|once|backup|save|clone|import)\b|\battach\b|\bvacuum\s+into\b/im.test(sql) || cmd.redirects.some((r) => r.op === '<')) {
    sink.unknown(`${cmd.name} may write files named inside its SQL (.output, .backup, ATTACH, VACUUM INTO)`);
  }
};

/** Writers whose operands are the written paths: fed by xargs, their targets come from stdin. */
export const OPERAND_WRITERS: ReadonlySet<string> = new Set([
  'tee',
  'touch',
  'mkdir',
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'truncate',
  'mkfifo',
  'chmod',
  'chown',
  'chgrp',
  'gzip',
  'gunzip',
  'bzip2',
  'xz',
  'cp',
  'mv',
  'ln',
  'install',
  'rsync',
  'sed',
  'perl',
]);

/** Which extractor handles each effective command name. */
export const WRITERS: Readonly<Record<string, WriteExtractor>> = {
  tee: operands({ longWithValue: ['--output-error'] }),
  touch: operands({ shortWithValue: 'drt', longWithValue: ['--date', '--reference'] }),
  mkdir: operands({ shortWithValue: 'm', longWithValue: ['--mode', '--context'] }),
  rm: operands({}),
  rmdir: operands({}),
  unlink: operands({}),
  shred: operands({ shortWithValue: 'ns', longWithValue: ['--iterations', '--size', '--random-source'] }),
  truncate: operands({ shortWithValue: 'sr', longWithValue: ['--size', '--reference'] }),
  chmod: operands({ longWithValue: [] }, (a) => (a.long.has('--reference') ? 0 : 1)),
  chown: operands({}, (a) => (a.long.has('--reference') ? 0 : 1)),
  chgrp: operands({}, (a) => (a.long.has('--reference') ? 0 : 1)),
  cp: copyLike({ shortWithValue: 'tS', longWithValue: ['--target-directory', '--suffix'] }),
  mv: copyLike({ shortWithValue: 'tS', longWithValue: ['--target-directory', '--suffix'] }, { sourcesToo: true }),
  ln: (cmd, sink) => {
    const shape: OptionShape = { shortWithValue: 'tS', longWithValue: ['--target-directory', '--suffix'] };
    copyLike(shape)(cmd, sink);
    const args = parseArgs(cmd.argv, 1, shape);
    if (args.short.has('s') || args.long.has('--symbolic')) return;
    // A hard link shares the source's inode: writing through it changes the source, so the source counts as written.
    const targetDir = args.values.has('t') || args.values.has('--target-directory');
    const sources = targetDir ? args.operands.length : Math.max(args.operands.length - 1, args.operands.length === 1 ? 1 : 0);
    for (let k = 0; k < sources; k++) sink.path(args.operands[k]!, 'ln (hard link source: writes through the link change it)', args.operandIndex[k]);
  },
  install: copyLike({ shortWithValue: 'tSmog', longWithValue: ['--target-directory', '--suffix', '--mode', '--owner', '--group'] }),
  rsync: copyLike(
    {
      shortWithValue: 'eTfB',
      longWithValue: [
        '--rsh',
        '--temp-dir',
        '--filter',
        '--exclude',
        '--include',
        '--exclude-from',
        '--include-from',
        '--files-from',
        '--partial-dir',
        '--backup-dir',
        '--rsync-path',
      ],
    },
    { remoteAware: true },
  ),
  sed: sedLike('i'),
  perl: sedLike('i'),
  git,
  sort: outputOption({ shortWithValue: 'ok', longWithValue: ['--output', '--key'] }, ['o', '--output']),
  curl: (cmd, sink) => {
    outputOption(CURL_SHAPE, [
      'o',
      '--output',
      'D',
      '--dump-header',
      'c',
      '--cookie-jar',
      '--trace',
      '--trace-ascii',
      '--stderr',
      '--etag-save',
      '--hsts',
      '--alt-svc',
    ])(cmd, sink);
    const args = parseArgs(cmd.argv, 1, CURL_SHAPE);
    if (!(args.short.has('O') || args.long.has('--remote-name') || args.long.has('--remote-name-all'))) return;
    const dir = args.values.get('--output-dir')?.[0];
    if (dir !== undefined) sink.within(dir, cmd.argv.indexOf(dir));
    urlNames(args, sink, 'curl -O', false);
  },
  wget: (cmd, sink) => {
    const shape: OptionShape = {
      shortWithValue: 'OPaoeiUtTwQlAR',
      longWithValue: [
        '--output-document',
        '--directory-prefix',
        '--output-file',
        '--append-output',
        '--input-file',
        '--user-agent',
        '--tries',
        '--timeout',
        '--wait',
        '--level',
        '--accept',
        '--reject',
      ],
    };
    const args = parseArgs(cmd.argv, 1, shape);
    if (args.long.has('--spider')) return;
    for (const key of ['o', '--output-file', 'a', '--append-output'])
      for (const v of args.values.get(key) ?? []) sink.path(v, `wget ${key.length === 1 ? '-' + key : key}`, cmd.argv.indexOf(v));
    const doc = args.values.get('O')?.[0] ?? args.values.get('--output-document')?.[0];
    if (doc !== undefined) {
      if (doc !== '-') sink.path(doc, 'wget -O', cmd.argv.indexOf(doc));
      return;
    }
    const dir = args.values.get('P')?.[0] ?? args.values.get('--directory-prefix')?.[0];
    if (dir !== undefined) sink.within(dir, cmd.argv.indexOf(dir));
    if (args.short.has('r') || args.long.has('--recursive') || args.short.has('m') || args.long.has('--mirror')) {
      sink.tree(dir ?? '.', 'wget -r (mirrors a site under this directory)');
      return;
    }
    urlNames(args, sink, 'wget', true);
  },
  npm: packageManager,
  pnpm: packageManager,
  yarn: packageManager,
  cargo: packageManager,
  go: packageManager,
  poetry: packageManager,
  uv: (cmd, sink) => (cmd.argv[1] === 'pip' ? pip(cmd, sink) : packageManager(cmd, sink)),
  bundle: packageManager,
  composer: packageManager,
  bun: (cmd, sink) => (cmd.argv.some((w) => w === '-e' || w === '--eval') ? interpreter(cmd, sink) : packageManager(cmd, sink)),
  pip,
  pip3: pip,
  python: interpreter,
  python3: interpreter,
  python2: interpreter,
  node: interpreter,
  ruby: interpreter,
  php: interpreter,
  bash: interpreter,
  sh: interpreter,
  zsh: interpreter,
  dash: interpreter,
  ksh: interpreter,
  deno: interpreter,
  tsx: interpreter,
  'ts-node': interpreter,
  Rscript: interpreter,
  lua: interpreter,
};
