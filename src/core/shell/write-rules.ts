// Per-command knowledge of which operands a command writes: the table writes.ts consults.
import { type OptionShape, type ParsedArgs, gitSubcommandIndex, parseArgs } from './args.js';
import type { SimpleCommand } from './types.js';

/** Collects what one command writes; paths are as written, cwd is applied by the caller. */
export interface WriteSink {
  /** A path this command may create/modify/delete; argv index lets the sink check dynamic/glob. */
  path(path: string, via: string, argvIndex?: number): void;
  /** Writes something we cannot name statically. */
  unknown(why: string): void;
  /** Prefix for paths of this command only (`git -C dir`, `npm --prefix dir`, `tar -C dir`). */
  within(dir: string, argvIndex?: number): void;
}

export type WriteExtractor = (cmd: SimpleCommand, sink: WriteSink) => void;

/** All operands are written (after options with values are skipped); `skip` drops leading operands. */
function operands(shape: OptionShape, skip: (args: ParsedArgs) => number = () => 0): WriteExtractor {
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
    const args = parseArgs(cmd.argv, 1, perl ? { shortWithValue: 'eEIMm' } : { shortWithValue: 'efl', longWithValue: ['--expression', '--file', '--line-length'] });
    // `-i.bak` clusters parse as i,.,b,a,k: the letter is enough.
    if (!args.short.has(flagLetter) && !args.long.has('--in-place')) {
      if (perl) inlineCode(cmd, sink);
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
  const dir = args.values.get('--prefix')?.[0] ?? args.values.get('C')?.[0] ?? args.values.get('--dir')?.[0] ?? args.values.get('--cwd')?.[0] ?? args.values.get('--directory')?.[0];
  if (dir !== undefined) sink.within(dir, cmd.argv.indexOf(dir));
  for (const file of PACKAGE_FILES[tool] ?? []) {
    if (effectiveSub === 'ci' && file !== 'node_modules') continue; // ci never edits the manifest/lockfile
    sink.path(file, `${tool} ${effectiveSub} (manifest/lockfile/dependency dir)`);
  }
};

const pip: WriteExtractor = (cmd, sink) => {
  // `uv pip install` reads like `pip install` one word later.
  const args = parseArgs(cmd.argv, cmd.name === 'uv' ? 2 : 1, { shortWithValue: 'rctei', longWithValue: ['--requirement', '--constraint', '--target', '--editable', '--index-url', '--prefix', '--root'] });
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
      sink.unknown(`git ${sub} without -- may switch branches, rewriting tracked files`);
    }
    return;
  }
  if (sub === 'rm' || sub === 'mv') {
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
  if (GIT_WORKTREE.has(sub)) sink.unknown(`git ${sub} rewrites tracked files across the work tree`);
};

const tar: WriteExtractor = (cmd, sink) => {
  // Old-style `tar xzf a.tar`: the first word is a cluster of letters without a dash.
  const argv = cmd.argv[1] !== undefined && !cmd.argv[1].startsWith('-') ? ['tar', `-${cmd.argv[1]}`, ...cmd.argv.slice(2)] : cmd.argv;
  const args = parseArgs(argv, 1, { shortWithValue: 'fCTXb', longWithValue: ['--file', '--directory', '--files-from', '--exclude-from'] });
  const dir = args.values.get('C')?.[0] ?? args.values.get('--directory')?.[0];
  if (args.short.has('x') || args.long.has('--extract') || args.long.has('--get')) {
    sink.path(dir ?? '.', 'tar -x (extracts under this directory)', dir === undefined ? undefined : cmd.argv.indexOf(dir));
  } else if (args.short.has('c') || args.short.has('r') || args.short.has('u') || args.long.has('--create') || args.long.has('--append')) {
    const file = args.values.get('f')?.[0] ?? args.values.get('--file')?.[0];
    if (file !== undefined && file !== '-') sink.path(file, 'tar -c', cmd.argv.indexOf(file));
  }
};

const unzip: WriteExtractor = (cmd, sink) => {
  const args = parseArgs(cmd.argv, 1, { shortWithValue: 'dxP' });
  if (args.short.has('l') || args.short.has('t') || args.short.has('Z') || args.short.has('p')) return;
  const dir = args.values.get('d')?.[0];
  sink.path(dir ?? '.', 'unzip (extracts under this directory)', dir === undefined ? undefined : cmd.argv.indexOf(dir));
};

const dd: WriteExtractor = (cmd, sink) => {
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

const interpreter: WriteExtractor = (cmd, sink) => inlineCode(cmd, sink);

/** Writers whose operands are the written paths: fed by xargs, their targets come from stdin. */
export const OPERAND_WRITERS: ReadonlySet<string> = new Set([
  'tee', 'touch', 'mkdir', 'rm', 'rmdir', 'unlink', 'shred', 'truncate', 'mkfifo', 'chmod', 'chown', 'chgrp',
  'gzip', 'gunzip', 'bzip2', 'xz', 'cp', 'mv', 'ln', 'install', 'rsync', 'sed', 'perl',
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
  mkfifo: operands({ shortWithValue: 'm' }),
  chmod: operands({ longWithValue: [] }, (a) => (a.long.has('--reference') ? 0 : 1)),
  chown: operands({}, (a) => (a.long.has('--reference') ? 0 : 1)),
  chgrp: operands({}, (a) => (a.long.has('--reference') ? 0 : 1)),
  gzip: operands({ shortWithValue: 'S' }),
  gunzip: operands({ shortWithValue: 'S' }),
  bzip2: operands({}),
  xz: operands({}),
  cp: copyLike({ shortWithValue: 'tS', longWithValue: ['--target-directory', '--suffix'] }),
  mv: copyLike({ shortWithValue: 'tS', longWithValue: ['--target-directory', '--suffix'] }, { sourcesToo: true }),
  ln: copyLike({ shortWithValue: 'tS', longWithValue: ['--target-directory', '--suffix'] }),
  install: copyLike({ shortWithValue: 'tSmog', longWithValue: ['--target-directory', '--suffix', '--mode', '--owner', '--group'] }),
  rsync: copyLike({ shortWithValue: 'eTfB', longWithValue: ['--rsh', '--temp-dir', '--filter', '--exclude', '--include', '--exclude-from', '--include-from', '--files-from', '--partial-dir', '--backup-dir', '--rsync-path'] }, { remoteAware: true }),
  sed: sedLike('i'),
  perl: sedLike('i'),
  dd,
  git,
  tar,
  unzip,
  patch: (cmd, sink) => {
    const args = parseArgs(cmd.argv, 1, { shortWithValue: 'pioBdDrVFYz', longWithValue: ['--input', '--output', '--directory'] });
    if (args.long.has('--dry-run')) return;
    const out = args.values.get('o')?.[0];
    if (out !== undefined) sink.path(out, 'patch -o', cmd.argv.indexOf(out));
    else sink.unknown('patch writes the files named inside the patch');
  },
  sort: outputOption({ shortWithValue: 'ok', longWithValue: ['--output', '--key'] }, ['o', '--output']),
  curl: outputOption({ shortWithValue: 'oHdXuAeTrwxzKbcEm', longWithValue: ['--output', '--header', '--data', '--request', '--user'] }, ['o', '--output'], (args) =>
    args.short.has('O') || args.long.has('--remote-name') ? 'curl -O names the file after the URL' : undefined,
  ),
  wget: outputOption({ shortWithValue: 'OPaoe', longWithValue: ['--output-document', '--directory-prefix'] }, ['O', '--output-document', 'P', '--directory-prefix'], (args) =>
    args.long.has('--spider') ? undefined : 'wget names the file after the URL',
  ),
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
};
