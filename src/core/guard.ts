// The destructive-command guard as one pure policy: in every project, governed
// or not, a Bash command on the destructive list goes to a human (`ask`), is
// refused (`deny`), or passes (`off`), as [guard] destructive says.
import { isAbsolute, join, normalize } from 'node:path';
import type { HookInput } from './hook-input.js';
import { destructiveLine } from './human-reason.js';
import { result, type PolicyResult } from './verdict.js';

export type GuardMode = 'ask' | 'deny' | 'off';

export interface DestructiveFindings {
  destructive: boolean;
  findings: ReadonlyArray<{ rule: string; command: string; why: string; via?: string; effect?: string }>;
}

/** Said in every ask: who can answer, and what happens when nobody can. */
export const NOBODY_ANSWERS = 'If nobody can answer (claude -p, CI), the client turns this ask into a denial: then find another way or leave it to the human.';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The verdict for a command already classified; `what` names the call in the reason. */
export function guardVerdict(d: DestructiveFindings, what: string, mode: GuardMode): PolicyResult {
  if (!d.destructive || mode === 'off') return result();
  // A finding that knows its object and where it lives speaks for the command (issue 30).
  const f = d.findings.find((x) => x.effect !== undefined) ?? d.findings[0]!;
  const why = `${what} is destructive (${f.why}: \`${clip(f.command, 120)}\`${f.via === undefined ? '' : ` through ${f.via}`})`;
  const instead = 'Find a non-destructive way (move to a backup instead of deleting, a new commit instead of a force push) or ask the human to run it.';
  const human = destructiveLine(f);
  const notes = [{ type: mode === 'ask' ? 'DestructiveAsked' : 'DestructiveDenied', rules: d.findings.map((x) => x.rule) }];
  if (mode === 'deny') {
    return result(
      {
        kind: 'deny',
        code: 'DESTRUCTIVE_BLOCKED',
        reason: `roz: ${why}, and this project refuses destructive commands ([guard] destructive = "deny"). ${instead}`,
        human,
      },
      notes,
    );
  }
  return result(
    { kind: 'ask', code: 'DESTRUCTIVE_BLOCKED', reason: `roz: ${why}, so a human must approve it. ${NOBODY_ANSWERS} If it is refused: ${instead}`, human },
    notes,
  );
}

/** Where a project without intents ends: its root, the cwd, and the scratch areas (all absolute). */
export interface ProjectBounds {
  root: string;
  cwd: string;
  home: string;
  scratch: readonly string[];
}

/** The bounds of a project without intents, from the hook's cwd and environment (`osTemp`: os.tmpdir()). */
export function projectBounds(cwd: string, env: Record<string, string | undefined>, home: string, osTemp: string): ProjectBounds {
  const scratch = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', env.TMPDIR, env.CLAUDE_CODE_TMPDIR, osTemp];
  return {
    root: env.CLAUDE_PROJECT_DIR || cwd,
    cwd,
    home,
    scratch: scratch.filter((d): d is string => d !== undefined && d.startsWith('/') && d !== '/'),
  };
}

/** Writers that only create or append (`>>`, `mkdir`, `touch`, `git clone`): nothing existing is lost. */
const CREATE_ONLY = /^(?:>>|&>>|mkdir|touch|git clone|git init|git worktree add|ln\b)/;

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * Files outside the project that a command overwrites, truncates, moves or deletes (`> /etc/passwd`,
 * `cp /dev/null ~/.bashrc`, `mv / /tmp/x`): in a repo without intents nothing else asks about
 * them, and nothing in the project can restore them. Scratch areas and devices are not files to keep.
 */
export function outsideWrites(targets: ReadonlyArray<{ path: string; via: string }>, b: ProjectBounds): DestructiveFindings['findings'] {
  const out: Array<{ rule: string; command: string; why: string }> = [];
  for (const t of targets) {
    if (CREATE_ONLY.test(t.via)) continue;
    const p = t.path === '~' ? b.home : t.path.startsWith('~/') ? join(b.home, t.path.slice(2)) : isAbsolute(t.path) ? normalize(t.path) : join(b.cwd, t.path);
    if (p.startsWith('/dev/') || inside(p, b.root) || inside(p, b.cwd)) continue;
    // `rm /tmp/roz-*` is reported as its directory: a pattern under scratch is scratch, /tmp itself is not.
    // The home is the user's even where it lies under a temp dir (CI): only a temp dir inside it is scratch.
    const pattern = t.via.includes('matching a pattern');
    const home = inside(p, b.home);
    if (b.scratch.some((d) => (p !== d || pattern) && inside(p, d) && (!home || inside(d, b.home)))) continue;
    out.push({
      rule: 'outside-project-write',
      command: t.path,
      why: `${t.via} changes ${t.path}, outside the project, where nothing in the project can restore it`,
    });
  }
  return out;
}

/**
 * The guard on its own, for a project without intent governance. `outside` lists files beyond the
 * project the command would destroy (see outsideWrites); those are asked about like a destructive command.
 */
export function guardOnPreToolUse(
  input: HookInput<'PreToolUse'>,
  classify: (command: string) => DestructiveFindings,
  mode: GuardMode,
  outside?: (command: string) => DestructiveFindings['findings'],
): PolicyResult {
  if (mode === 'off' || input.tool_name !== 'Bash' || typeof input.tool_input.command !== 'string') return result();
  const command = input.tool_input.command;
  const d = classify(command);
  if (d.destructive || outside === undefined) return guardVerdict(d, `\`${clip(command, 200)}\``, mode);
  const beyond = outside(command);
  return guardVerdict({ destructive: beyond.length > 0, findings: beyond }, `\`${clip(command, 200)}\``, mode);
}
