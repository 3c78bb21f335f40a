// Write extractors of programs most Bash calls never run (archives, compilers, awk, scripted
// editors, sqlite, dd, patch, split…): moved out of write-rules.ts into the on-demand effects
// module (issue 30), like lazy-rules.ts. writes.ts asks for the module when a command's name is
// one of them (lazyWriterName in effects-hint.ts).
import { parseArgs } from './args.js';
import { awk, compiler, dd, operands, scriptedEditor, split, sqlite, tar, unzip, type WriteExtractor, xxd, zip } from './write-rules.js';

export const LAZY_WRITERS: Readonly<Record<string, WriteExtractor>> = {
  mkfifo: operands({ shortWithValue: 'm' }),
  gzip: operands({ shortWithValue: 'S' }),
  gunzip: operands({ shortWithValue: 'S' }),
  bzip2: operands({}),
  xz: operands({}),
  dd,
  tar,
  unzip,
  patch: (cmd, sink) => {
    const args = parseArgs(cmd.argv, 1, { shortWithValue: 'pioBdDrVFYz', longWithValue: ['--input', '--output', '--directory'] });
    if (args.long.has('--dry-run')) return;
    const out = args.values.get('o')?.[0];
    if (out !== undefined) sink.path(out, 'patch -o', cmd.argv.indexOf(out));
    else sink.unknown('patch writes the files named inside the patch');
  },
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  gcc: compiler,
  'g++': compiler,
  cc: compiler,
  'c++': compiler,
  clang: compiler,
  'clang++': compiler,
  rustc: compiler,
  split,
  csplit: (cmd, sink) => {
    const prefix = parseArgs(cmd.argv, 1, { shortWithValue: 'fbn', longWithValue: ['--prefix', '--suffix-format', '--digits'] }).values.get('f')?.[0] ?? 'xx';
    sink.path(`${prefix}00`, 'csplit (writes PREFIX00, PREFIX01, …)');
  },
  xxd,
  zip,
  vim: scriptedEditor,
  vi: scriptedEditor,
  nvim: scriptedEditor,
  ex: scriptedEditor,
  ed: scriptedEditor,
  emacs: scriptedEditor,
  sqlite3: sqlite,
  sqlite: sqlite,
};
