// A human's approvals of agents' branches when roz has no session of the
// agent to record them in (work an agent did before roz ran it, or a client
// whose hooks never reached roz): one line each in roz's store
// (`<store>/fleet/human-approvals.jsonl`), which an enforced agent cannot
// write. The gate reads them beside the sessions' decisions
// (engine/fleet/agent-merge.ts).
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { ReviewedDecision } from '../core/fleet/merge-gate.js';
import { appendRegularFile, MiB, readOptionalText } from './regular-file.js';

export interface HumanApprovalLine {
  /** The agent's worktree (real path), as the registry records it. */
  worktree: string;
  agent: string;
  branch: string;
  commit: string;
  tree: string;
  human: string;
  decided_at: string;
}

const file = (storeDir: string): string => join(storeDir, 'fleet', 'human-approvals.jsonl');

export function appendHumanApproval(storeDir: string, line: HumanApprovalLine): void {
  appendRegularFile(storeDir, file(storeDir), `${JSON.stringify(line)}\n`, { mode: 0o600, dirMode: 0o700 });
}

const realOr = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** The approvals recorded for `worktree`, as the gate reads decisions. A line roz cannot read counts for nothing. */
export function humanApprovalsFor(storeDir: string, worktree: string): Array<ReviewedDecision & { session_id: string; summary: string; human: string }> {
  const text = readOptionalText(file(storeDir), 64 * MiB) ?? '';
  const wt = realOr(worktree);
  const out: Array<ReviewedDecision & { session_id: string; summary: string; human: string }> = [];
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      const v = JSON.parse(l) as Partial<HumanApprovalLine>;
      if (v.worktree !== wt || typeof v.tree !== 'string' || typeof v.decided_at !== 'string' || typeof v.human !== 'string') continue;
      out.push({
        kind: 'complete',
        tree: v.tree,
        decided_at: v.decided_at,
        session_id: '(none)',
        summary: `approved by ${v.human} at a terminal: ${v.branch} at ${String(v.commit).slice(0, 12)}`,
        human: v.human,
      });
    } catch {
      /* not a line roz wrote */
    }
  }
  return out;
}
