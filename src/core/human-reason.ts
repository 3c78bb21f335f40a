// The one line the human reads for an ask or a denial (approval panel, status
// line, `roz trace`): what is wrong, in a few words, with the path or command
// it is about. The agent's text next to it says what to do next and stays for
// the agent (and under `i` in the panel); this line says nothing about MCP
// tools, print mode or the project's absolute path.
import type { DenialCode, Verdict } from './verdict.js';

/** A human line fits a status line after the command: past this it is cut with `…`. */
export const HUMAN_MAX = 120;

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** An intent's scope in a few globs: `src/**, test/** +3 more`, or `empty`. */
export function scopeSummary(globs: readonly string[], max = 3): string {
  if (globs.length === 0) return 'empty';
  const shown = globs.slice(0, max).join(', ');
  return globs.length > max ? `${shown} +${globs.length - max} more` : shown;
}

/** `build/ is outside INT-042's scope: src/**` — `where` is a project path, `build/` for a tree. */
export function outsideScopeLine(where: string, intentId: string, scope: readonly string[], more = 0): string {
  const also = more > 0 ? ` (+${more} more)` : '';
  return line(`${where}${also} is outside ${intentId}'s scope: ${scopeSummary(scope)}`);
}

/** A write outside the project: `writes /etc/hosts, outside the project`. */
export function outsideProjectLine(path: string): string {
  return line(`writes ${path}, outside the project`);
}

/** A command whose written files roz cannot name: `writes files roz cannot name (sed -i)`. */
export function unknownWritesLine(why: string, intentId: string): string {
  return line(`writes files roz cannot name (${oneLine(why)}); ${intentId}'s scope cannot be checked`);
}

/** The operands of a described simple command: the words after its name that are not options. */
function operands(command: string): string[] {
  const words = command.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let options = true;
  for (const w of words.slice(1)) {
    if (options && w === '--') options = false;
    else if (options && w.startsWith('-') && w !== '-') continue;
    else out.push(w);
  }
  return out;
}

/** What some destructive rules do, in the human's words, with their operands. */
const DESTRUCTIVE_WORDS: Record<string, (ops: string[], command: string) => string | null> = {
  'rm-recursive-force': (ops) => (ops.length ? `deletes the tree${ops.length > 1 ? 's' : ''} ${ops.map(tree).join(' ')}` : null),
  'rm-broad-target': (ops) => (ops.length ? `deletes ${ops.join(' ')}` : null),
  'git-reset-hard': () => 'discards all uncommitted work (git reset --hard)',
  'git-clean-force': () => 'deletes untracked files (git clean -f)',
  'git-push-force': () => 'force-push: rewrites shared history',
  'git-branch-force-delete': (ops) => `deletes branch ${ops.at(-1) ?? ''} even if unmerged`.trim(),
  'roz-answer': (ops) => `the agent tries to answer roz's queue itself (roz ${ops.join(' ')})`,
  'sql-drop': (_ops, command) => sqlEffect(command),
};

/** What a destructive SQL statement does, in words: `drops the database app`, `empties the table users`. */
function sqlEffect(command: string): string | null {
  const sql = command.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\s+/g, ' ');
  const name = (s: string): string => s.replace(/[`"[\];]/g, '');
  let m = /\bdrop\s+(database|table|schema|view|keyspace|collection|user|role|index)\s+(?:if\s+exists\s+)?([\w."`[\]]+)/i.exec(sql);
  if (m) return `drops the ${m[1]!.toLowerCase()} ${name(m[2]!)}`;
  m = /\btruncate\s+(?:table\s+)?([\w."`[\]]+)/i.exec(sql);
  if (m) return `empties the table ${name(m[1]!)}`;
  m = /\bdelete\s+from\s+([\w."`[\]]+)/i.exec(sql);
  if (m) return `deletes every row of ${name(m[1]!)}`;
  if (/\.dropDatabase\s*\(/.test(sql)) return 'drops the database';
  return null;
}

const tree = (p: string): string => (p.endsWith('/') ? p : `${p}/`);

/** A destructive command's line from its first finding: `deletes the tree build/`. */
export function destructiveLine(f: { rule: string; command: string; why: string; via?: string; effect?: string }): string {
  const words = f.effect ?? DESTRUCTIVE_WORDS[f.rule]?.(operands(f.command), f.command) ?? null;
  const through = f.via === undefined ? '' : ` through ${f.via}`;
  // The runner is said before a long command is cut, so the human always reads where it runs.
  return words !== null ? line(`${words}${through}`) : line(`${f.why}${through}: ${oneLine(f.command)}`);
}

/** What each code means when its producer gave no line of its own. */
const CODE_LINES: Record<DenialCode, string> = {
  REVIEW_REQUIRED: 'needs an independent review first',
  CLIENT_DIALOG: 'the client asks permission',
  SELF_APPROVAL: 'the agent tried to approve its own work',
  DECISION_REFUSED: 'a review decision was refused',
  REVIEWER_MODEL: "the agent tried to pick the reviewer's model",
  REVIEWER_READ_ONLY: 'the reviewer tried to write',
  BAD_SESSION_ID: 'bad session id',
  STORE_PROTECTED: "writes roz's own store",
  PROTECTED_PATH: 'writes a protected path',
  SANDBOX_BYPASS: 'tries to run outside the sandbox',
  INTENT_REQUIRED: 'changes files with no intent selected',
  SCOPE_VIOLATION: "outside the intent's scope",
  STALE_FILE: 'the file changed since the agent read it',
  DESTRUCTIVE_BLOCKED: 'destructive command',
  HUMAN_GATE: 'needs a human',
  HOOK_ERROR: 'roz could not decide (hook error)',
};

/** The human's line for a verdict: its own, or one made from its code; null when it neither asks nor denies. */
export function humanReason(v: Verdict): string | null {
  if (v.kind !== 'ask' && v.kind !== 'deny') return null;
  if (v.human) return line(v.human);
  if (v.kind === 'deny' && v.bare) return line(v.reason);
  return CODE_LINES[v.code] ?? line(v.reason.replace(/^roz: /, '').split(/(?<=\.)\s/)[0] ?? v.code);
}

function line(s: string): string {
  return clip(oneLine(s), HUMAN_MAX);
}
