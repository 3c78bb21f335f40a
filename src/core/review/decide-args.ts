// The grammar of `roz decide`, shared by the PreToolUse hook (which records the
// reviewer's decision) and the CLI (which reports what was recorded):
//   roz decide [SESSION] COMPLETE|ISSUES "summary" [--message M] [--opinions LIST] [--no-opinion WHY]
// Pure: argv in (the words after `decide`), a request or a usage error out.
import type { DecisionKind } from './state.js';

export interface DecideArgs {
  session: string | null;
  kind: DecisionKind;
  summary: string;
  message?: string;
  /** Second-opinion sources the reviewer used (codex, gemini, claude, ...). */
  opinions?: string[];
  /** Why no second opinion could be had. */
  no_opinion?: string;
}

export type ParsedDecide = { ok: true; args: DecideArgs } | { ok: false; error: string };

const KINDS: Record<string, DecisionKind> = { COMPLETE: 'complete', ISSUES: 'issues' };
const VALUED: Record<string, 'message' | 'opinions' | 'no_opinion'> = {
  '-m': 'message',
  '--message': 'message',
  '--opinions': 'opinions',
  '--no-opinion': 'no_opinion',
};

export function isDecisionKind(word: string): boolean {
  return word.toUpperCase() in KINDS;
}

export function parseDecideArgs(words: readonly string[]): ParsedDecide {
  const positional: string[] = [];
  const opts: Partial<Record<'message' | 'opinions' | 'no_opinion', string>> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') {
      positional.push(...words.slice(i + 1));
      break;
    }
    const eq = w.startsWith('--') ? w.indexOf('=') : -1;
    const flag = eq > 0 ? w.slice(0, eq) : w;
    const key = VALUED[flag];
    if (key) {
      const value = eq > 0 ? w.slice(eq + 1) : words[++i];
      if (value === undefined) return { ok: false, error: `${flag} needs a value` };
      if (opts[key] !== undefined) return { ok: false, error: `${flag} given twice` };
      opts[key] = value;
      continue;
    }
    if (w.startsWith('-') && w.length > 1) return { ok: false, error: `unknown option ${w}` };
    positional.push(w);
  }
  // The first word is the session only when the decision follows it, so a
  // mistyped decision (`roz decide garbage`) is named as one, not taken for a session.
  let session: string | null = null;
  let rest = positional;
  if (rest.length > 1 && !isDecisionKind(rest[0]!) && isDecisionKind(rest[1]!)) {
    session = rest[0]!;
    rest = rest.slice(1);
  }
  const [kindArg, summary, ...extra] = rest;
  if (!kindArg) return { ok: false, error: 'missing decision: COMPLETE or ISSUES' };
  const kind = KINDS[kindArg.toUpperCase()];
  if (!kind) return { ok: false, error: `invalid decision ${JSON.stringify(kindArg)}: use COMPLETE or ISSUES` };
  if (!summary || !summary.trim()) return { ok: false, error: 'missing summary: say what you verified, in quotes' };
  if (extra.length > 0) return { ok: false, error: `unexpected arguments: ${extra.join(' ')} (quote the summary)` };
  if (kind === 'issues' && !opts.message?.trim()) return { ok: false, error: 'ISSUES needs --message "what the agent must fix"' };
  const opinions = opts.opinions
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    ok: true,
    args: {
      session,
      kind,
      summary,
      ...(opts.message !== undefined ? { message: opts.message } : {}),
      ...(opinions && opinions.length > 0 ? { opinions } : {}),
      ...(opts.no_opinion?.trim() ? { no_opinion: opts.no_opinion.trim() } : {}),
    },
  };
}

/** The usage line, for errors. */
export const DECIDE_USAGE = 'roz decide SESSION COMPLETE|ISSUES "summary" [--message "what to fix"] [--opinions codex,gemini,claude] [--no-opinion "why none"]';
