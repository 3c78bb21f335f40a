// Tool gates: patterns such as `Bash:gh issue close*` that start a review
// before the tool may run, and the approval scopes that decide how long a
// reviewer's COMPLETE keeps a gate open.
import type { SessionState } from '../session-state.js';
import { gateForms } from './gate-match.js';

export interface GatePattern {
  source: string;
  tool: string;
  /** Glob over the normalised command (Bash) — absent means any call of the tool. */
  arg: string | null;
}

export function parseGate(source: string): GatePattern {
  const idx = source.indexOf(':');
  // `mcp__server__tool` names contain no colon; `Bash:cmd` does.
  if (idx <= 0) return { source, tool: source.trim(), arg: null };
  return { source, tool: source.slice(0, idx).trim(), arg: source.slice(idx + 1).trim() };
}

const matcherCache = new Map<string, (s: string) => boolean>();
/**
 * Command globs are not paths (picomatch's `*` stops at `/`), so they get their
 * own tiny matcher: `*` is any text (newlines too), `?` one character, the rest
 * literal. Gates come from `.roz/config.toml`, which the agent can write, so
 * this is the classic two-pointer wildcard match, not a RegExp: on a mismatch
 * only the last `*` takes one more character (any earlier `*` could only
 * match less of what the later one can take), so a test costs at most
 * O(command × glob). The RegExp it replaces backtracked for minutes on
 * `*a*a*a*a*a*a*a*a*a*a*a*a*b` and a 120-character command (issue 24).
 */
export function commandGlob(glob: string): (s: string) => boolean {
  let m = matcherCache.get(glob);
  if (!m) {
    m = (s: string) => wildcardMatch(glob, s);
    matcherCache.set(glob, m);
  }
  return m;
}

function wildcardMatch(glob: string, s: string): boolean {
  let g = 0;
  let i = 0;
  let star = -1;
  let resume = 0;
  while (i < s.length) {
    const c = glob[g];
    if (c === '*') {
      star = g++;
      resume = i;
    } else if (c !== undefined && (c === '?' || c === s[i])) {
      g++;
      i++;
    } else if (star >= 0) {
      g = star + 1;
      i = ++resume;
    } else return false;
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

export interface GateMatch {
  pattern: string;
  command?: string;
}

/**
 * Which gate (if any) a tool call hits. `argvs` are the effective argv of every
 * simple command of a Bash call (see core/shell), each matched on its own,
 * joined and with global flags removed (gate-match.ts).
 */
export function matchGate(gates: string[], toolName: string, argvs: () => string[][]): GateMatch | null {
  for (const source of gates) {
    const gate = parseGate(source);
    if (!commandGlob(gate.tool)(toolName)) continue;
    if (gate.arg === null) return { pattern: source };
    if (toolName !== 'Bash') continue;
    const glob = commandGlob(gate.arg);
    const hit = argvs().find((argv) => gateForms(argv).some(glob));
    if (hit !== undefined) return { pattern: source, command: hit.join(' ') };
  }
  return null;
}

export interface ApprovalPolicy {
  approval_scope: 'session' | 'prompt' | 'tool';
  approval_ttl_seconds: number;
}

/** Does a reviewer's earlier COMPLETE still open the gate? */
export function isGateApproved(state: SessionState, policy: ApprovalPolicy, now: Date): boolean {
  const review = state.review;
  const decision = review.decision;
  if (!decision || !decision.valid || decision.kind !== 'complete') return false;
  if (review.gate_approved_at === null) return false;
  const approvedAt = Date.parse(review.gate_approved_at);
  if (policy.approval_ttl_seconds > 0 && now.getTime() - approvedAt > policy.approval_ttl_seconds * 1000) return false;
  switch (policy.approval_scope) {
    case 'session':
      return true;
    case 'prompt':
      return review.last_prompt_at === null || approvedAt >= Date.parse(review.last_prompt_at);
    case 'tool':
      // Consumed by the first gated call after the approval (see consumeApproval).
      return true;
  }
}

/** With scope `tool`, each approval opens the gate exactly once. */
export function consumeApproval(state: SessionState, policy: ApprovalPolicy): void {
  if (policy.approval_scope === 'tool') state.review.gate_approved_at = null;
}
