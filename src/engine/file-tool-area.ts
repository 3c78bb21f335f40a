// Where the Write/Edit/MultiEdit/NotebookEdit tools may write: where the
// client's sandboxed Bash may (the project, $TMPDIR), plus folders the user
// named in their own config (`[enforce] write_paths`; a project's config
// cannot add any). Never a `.git/` inside the project, the project's own or a
// nested repository's: git runs programs named there (config, hooks,
// attributes), and only git itself needs to write it. The file tools are not
// sandboxed, so the PreToolUse hook (store-guard.ts) and, under roz exec/run,
// the deny rules of the settings (enforce-paths.ts) hold this line.
import { readdirSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { resolveReal } from '../store/realpath.js';

export interface WriteArea {
  /** The project (real path): CLAUDE_PROJECT_DIR, else the cwd. */
  project: string;
  /** $TMPDIR and the sandbox's own temp folder (real paths); they grant nothing inside `home`. */
  temp: string[];
  /** The user's `[enforce] write_paths` (real paths). */
  user: string[];
  /** The home folder (real path): its files run the user's shell and configure git. */
  home: string;
}

const inside = (p: string, root: string): boolean => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

/** $TMPDIR and the sandbox's $TMPDIR for Bash (/tmp/claude-<uid> on Linux); never all of /tmp, which sandboxed Bash cannot write either. */
function tempDirs(env: Record<string, string | undefined>): string[] {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  return [env.TMPDIR, uid === null ? undefined : `/tmp/claude-${uid}`].filter((d): d is string => !!d && isAbsolute(d));
}

export function fileToolWriteArea(env: Record<string, string | undefined>, cwd: string, home: string, writePaths: readonly string[]): WriteArea {
  const real = (ps: string[]): string[] => [...new Set(ps.map((p) => resolveReal(p)))];
  const user = writePaths.map((p) => (p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p)).filter((p) => isAbsolute(p));
  return { project: resolveReal(env.CLAUDE_PROJECT_DIR || cwd), temp: real(tempDirs(env)), user: real(user), home: resolveReal(home) };
}

/** Why a file-tool write to `real` (resolved) is refused: 'git' inside a .git/ of the project, 'outside' the area, or null. */
export function fileToolRefusal(real: string, area: WriteArea): 'git' | 'outside' | null {
  if (inside(real, area.project)) return real.slice(area.project.length).split(sep).includes('.git') ? 'git' : null;
  if (area.user.some((d) => inside(real, d))) return null;
  // A home folder inside a temp folder (a test's, a container's) is still a home folder.
  if (inside(real, area.home)) return 'outside';
  return area.temp.some((d) => inside(real, d)) ? null : 'outside';
}

/** Shell start-up and tool config files in a home folder: written by nobody's agent, run by everybody's shell. */
const HOME_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.mkshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
  '.gitconfig',
  '.gitattributes',
  '.npmrc',
  '.yarnrc',
  '.netrc',
  '.pypirc',
  '.curlrc',
  '.wgetrc',
  '.vimrc',
  '.exrc',
  '.editorconfig',
  '.xinitrc',
  '.xsession',
  '.xprofile',
  '.pam_environment',
];
const HOME_DIRS = ['.config', '.ssh', '.gnupg', '.local', '.aws', '.kube', '.docker', '.cargo', '.rustup', '.npm', '.bin', 'bin'];
/** Top-level system folders (only written by root, who may be the one running the agent). */
const SYSTEM_DIRS = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/boot',
  '/srv',
  '/var',
  '/root',
  '/home',
  '/Users',
  '/Library',
  '/System',
  '/Applications',
  '/private/etc',
];

/**
 * Paths outside the write area for the settings' deny rules (both clients
 * honour `Edit(//abs)` rules, bypass mode included; 2.1.197 has no rule for
 * "everything but"): every entry of the home folder that holds none of the
 * allowed folders (nor the client's own `keep` folder, whose plans and
 * memory it writes), the usual dotfiles even before they exist, and the
 * system folders. Each is denied as a file and as a folder. Names made later
 * elsewhere are the hook's to refuse.
 */
export function outsideDenyPaths(area: WriteArea, keep: readonly string[]): string[] {
  const spared = (p: string): boolean => [area.project, ...area.temp, ...area.user, ...keep].some((a) => inside(a, p) || inside(p, a));
  const out = new Set<string>();
  const realHome = area.home;
  let entries: string[] = [];
  try {
    entries = readdirSync(realHome);
  } catch {
    /* no home folder */
  }
  for (const name of [...entries, ...HOME_FILES, ...HOME_DIRS]) {
    const p = join(realHome, name);
    if (!spared(p)) out.add(p);
  }
  for (const d of SYSTEM_DIRS) if (!spared(d)) out.add(d);
  return [...out].sort();
}
