// The git repository a session started with, as recorded at SessionStart
// (store/git-repo.ts reads it; engine compares it before every snapshot).

export interface GitIdentity {
  /** The work tree's top: the directory holding `.git`. */
  top: string;
  /** `.git` itself: a directory, or a gitfile naming the git directory. */
  dot_git: { kind: 'dir' | 'file'; dev: number; ino: number };
  /** The git directory (the gitfile's target, or `.git`). */
  git_dir: string;
  git_dir_id: { dev: number; ino: number };
  /** Where objects and refs live (`commondir`, for a linked worktree), or the git directory. */
  common_dir: string;
}

/** The project a session reviews and audits, fixed when it started (not the cwd of a later event). */
export interface SessionGit {
  /** CLAUDE_PROJECT_DIR at SessionStart (or, without it, that event's cwd). */
  project_dir: string;
  /** Its repository then; null when it had none. */
  identity: GitIdentity | null;
  at: string;
}
