// What a gate pattern such as `Bash:gh issue close*` is matched against: each
// simple command's argv joined by spaces, and the same command with its
// global flags (and their values) taken out, so `gh -R o/r issue close 1`,
// `gh issue -R o/r close 1` and `git -c a=b push --force` read as
// `gh issue close 1` and `git push --force`. Pure.

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** gh's persistent flags, accepted anywhere on the command line, each taking a value. */
const GH_VALUED = new Set(['-R', '--repo', '--hostname']);

/** git's global options that take their value as the next word. */
const GIT_VALUED = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--list-cmds', '--attr-source']);

function withoutGhGlobals(argv: readonly string[]): string[] {
  const out = [argv[0]!];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (GH_VALUED.has(w)) {
      i++;
      continue;
    }
    if (/^--(repo|hostname)=/.test(w) || /^-R.+/.test(w)) continue;
    out.push(w);
  }
  return out;
}

function withoutGitGlobals(argv: readonly string[]): string[] {
  let i = 1;
  while (i < argv.length) {
    const w = argv[i]!;
    if (!w.startsWith('-') || w === '-') break;
    if (w === '--') {
      i++;
      break;
    }
    i += GIT_VALUED.has(w) ? 2 : 1;
  }
  return [argv[0]!, ...argv.slice(i)];
}

/** The strings a gate glob is tried against for one simple command. */
export function gateForms(argv: readonly string[]): string[] {
  if (argv.length === 0) return [];
  const joined = argv.join(' ');
  const name = basename(argv[0]!);
  let normalised: string[] | null = null;
  if (name === 'gh') normalised = withoutGhGlobals(argv);
  else if (name === 'git') normalised = withoutGitGlobals(argv);
  if (!normalised) return [joined];
  // Patterns are written with the bare tool name (`gh issue close*`), even when
  // the command ran it by path.
  normalised[0] = name;
  const n = normalised.join(' ');
  return n === joined ? [joined] : [joined, n];
}
