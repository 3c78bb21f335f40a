// What the merge gate and `agent add` return (engine/fleet/agent-merge.ts,
// engine/fleet/agent-add.ts), and how each value reads: one value for the
// CLI (which prints it and exits with its code), the fleet host and the
// agents tab (which show its message). Pure: no I/O.
import type { MergeRefusal } from './merge-gate.js';

/** Who approved the tree that merged: the roz:roz reviewer's COMPLETE, or a human at a terminal (`--human`, the TUI's `m`). */
export interface MergeApproval {
  by: 'reviewer' | 'human';
  decided_at: string;
  session_id: string;
  summary: string;
  /** The human who approved (`by: human`). */
  human?: string;
}

export type MergeResult =
  | {
      kind: 'merged';
      agent: string;
      branch: string;
      base: string;
      strategy: 'fast-forward' | 'merge';
      from: string;
      commit: string;
      tree: string;
      review: MergeApproval;
      /** Objects of the branch roz read and hashed again. */
      checked: number;
      ledger: { file: string; added: number; in_tree: boolean; error: string | null };
      /** The agent's working ledger: not read (why), lines that are not records, records roz did not write (their names). */
      agent_ledger: { refused: string | null; dropped: number; unverified: string[] };
      checkouts: string[];
    }
  | { kind: 'nothing'; agent: string; why: string }
  | {
      kind: 'refused';
      agent: string;
      branch: string;
      base: string;
      code: MergeRefusal | 'roz-files';
      why: string;
      /** Where to ask for a review: the agent's worktree and its newest session. */
      worktree: string;
      session: string | null;
    }
  | { kind: 'conflict'; agent: string; branch: string; base: string; paths: string[] }
  | { kind: 'dirty-base'; agent: string; base: string; checkout: string; files: string[] }
  | { kind: 'no-agent'; agent: string }
  /** No branch of its own (exit 2), an unreadable or forged object, a checkout that could not follow (exit 1). */
  | { kind: 'failed'; agent: string; message: string; exit: number };

/** Exit codes of `roz agent merge`: 0 merged (or nothing to merge), 5 refused by the gate, 6 a conflict, 4 the base checkout has changes, 3 no such agent, 1 anything else. */
export const MERGE_REFUSED = 5;
export const MERGE_CONFLICT = 6;

export function mergeExitCode(r: MergeResult): number {
  switch (r.kind) {
    case 'merged':
    case 'nothing':
      return 0;
    case 'refused':
      return MERGE_REFUSED;
    case 'conflict':
      return MERGE_CONFLICT;
    case 'dirty-base':
      return 4;
    case 'no-agent':
      return 3;
    case 'failed':
      return r.exit;
  }
}

/** A line to print: on stdout or stderr, a warning (yellow in a terminal) or not. */
export interface OutLine {
  err: boolean;
  text: string;
  warn?: boolean;
}

const sh = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** What `roz agent merge` prints for a result (the same words it always printed). */
export function describeMerge(r: MergeResult): OutLine[] {
  const err = (text: string): OutLine => ({ err: true, text });
  switch (r.kind) {
    case 'nothing':
      return [{ err: false, text: r.why }];
    case 'no-agent':
      return [err(`roz: no agent ${r.agent} here (roz agent ls)`)];
    case 'failed':
      return [err(`roz: ${r.message}`)];
    case 'dirty-base':
      return [
        err(
          `roz: ${r.base} is checked out in ${r.checkout} with uncommitted changes (${r.files.slice(0, 5).join(', ')}${r.files.length > 5 ? ', …' : ''}): commit or stash them first; nothing was merged`,
        ),
      ];
    case 'conflict':
      return [
        err(`roz: ${r.branch} does not merge cleanly into ${r.base}; nothing moved. Conflicting paths:`),
        ...r.paths.map((p) => err(`  ${p}`)),
        err(`Resolve them on the branch (in ${r.agent}'s worktree), get that reviewed, and merge again.`),
      ];
    case 'refused':
      if (r.code === 'roz-files') return [err(`roz: refused to merge ${r.branch} into ${r.base}: ${r.why}`)];
      return [
        err(`roz: refused to merge ${r.branch} into ${r.base}: ${r.why}`),
        err(
          `To ask for a review: in ${r.agent}'s session (cd ${sh(r.worktree)}${r.session ? `, session ${r.session}` : ''}), commit the work and send a prompt starting with #roz,`,
        ),
        err(`e.g. "#roz review the work on ${r.branch} for merging"; roz merges once the reviewer approves exactly what the branch holds.`),
        err(`Or review it yourself, in your terminal: roz agent merge ${r.agent} --human`),
      ];
    case 'merged': {
      const a = r.agent_ledger;
      const approved =
        r.review.by === 'human'
          ? `  approved by ${r.review.human ?? 'a human'} at ${r.review.decided_at} (reviewed by hand, session ${r.review.session_id})`
          : `  review approved ${r.review.decided_at} (session ${r.review.session_id}): "${r.review.summary}"`;
      const out: OutLine[] = [
        { err: false, text: `merged ${r.branch} into ${r.base} (${r.strategy}): ${r.from.slice(0, 12)} -> ${r.commit.slice(0, 12)}` },
        { err: false, text: approved },
        { err: false, text: `  tree ${r.tree}; ${r.checked} objects of the branch verified by roz` },
        {
          err: false,
          text: `  ledger: ${r.ledger.added} record(s) of ${r.agent} brought into ${r.ledger.file}${r.ledger.in_tree ? ' (and the tracked ledger merged by roz)' : ''}, plus this merge's record`,
        },
      ];
      if (r.ledger.error)
        out.push({
          err: false,
          warn: true,
          text: `warning: the merge is done but its ledger record could not be written to ${r.ledger.file}: ${r.ledger.error}`,
        });
      if (a.refused) out.push({ err: false, warn: true, text: `  warning: ${r.agent}'s working ledger was not read (${a.refused})` });
      if (a.dropped > 0)
        out.push({ err: false, warn: true, text: `  warning: ${a.dropped} line(s) of ${r.agent}'s working ledger are not records; left behind` });
      if (a.unverified.length > 0)
        out.push({
          err: false,
          warn: true,
          text: `  warning: ${a.unverified.length} record(s) of ${r.agent}'s working ledger were not written by roz in ${r.agent}'s sessions (${a.unverified
            .slice(0, 3)
            .join(', ')}${a.unverified.length > 3 ? ', …' : ''}); left behind`,
        });
      if (r.checkouts.length > 0) out.push({ err: false, text: `  updated the checkout ${r.checkouts.join(', ')}` });
      return out;
    }
  }
}

/** One line for the agents tab: the verdict, or `refused (exit N): why`. */
export function mergeMessage(r: MergeResult): { ok: boolean; message: string } {
  const code = mergeExitCode(r);
  const lines = describeMerge(r);
  const shown = code === 0 ? lines.filter((l) => !l.err) : lines.filter((l) => l.err).length ? lines.filter((l) => l.err) : lines;
  const text = shown
    .map((l) => l.text)
    .join('\n')
    .replace(/^roz: /, '')
    .trim();
  return { ok: code === 0, message: `${code === 0 ? '' : `refused (exit ${code}): `}${text}` };
}

/** What `roz agent add` returns. */
export type AddResult =
  | {
      kind: 'added';
      name: string;
      worktree: string;
      /** `roz/NAME`, or null for an agent sharing the directory. */
      branch: string | null;
      /** The branch it merges into (short name) and the commit it starts from; null when shared. */
      base: string | null;
      base_commit: string | null;
      shared: boolean;
      prompt: string | null;
      /** Said to the human (an agent sharing a directory: its writes can collide). */
      note: string | null;
    }
  | { kind: 'refused'; name: string; reason: string; exit: number };
