// `roz intent select ID` typed by the agent in its Bash: the PreToolUse hook
// (trusted: the client spawned it) records the selection itself, so it holds
// even where the agent's own `roz` cannot write the store (enforced mode).
// Only the plain form counts: one command, one intent id, at most this
// session's --session. `--project` and other overrides are for a human at a
// terminal; from the agent they are refused, never honoured.
import { rozSubcommand } from '../review/policy.js';

export type SelectCall = { kind: 'none' } | { kind: 'select'; intentId: string } | { kind: 'refuse'; why: string };

/** What a Bash command's simple commands (effective argv of each) ask of `roz intent select`. */
export function intentSelectCall(argvs: string[][], sessionId: string): SelectCall {
  const calls = argvs.filter((argv) => rozSubcommand(argv) === 'intent' && argv[argv.indexOf('intent') + 1] === 'select');
  if (calls.length === 0) return { kind: 'none' };
  if (argvs.length !== 1) return { kind: 'refuse', why: 'it is not the only command in the call; run `roz intent select ID` on its own' };
  const args = calls[0]!.slice(calls[0]!.indexOf('select') + 1);
  const ids: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--project' || a.startsWith('--project=')) return { kind: 'refuse', why: '--project is for a human at a terminal, never for the agent' };
    if (a === '--session' || a.startsWith('--session=')) {
      const v = a === '--session' ? args[++i] : a.slice('--session='.length);
      if (v !== sessionId) return { kind: 'refuse', why: `--session must be this session (${sessionId})` };
      continue;
    }
    if (a === '--json') continue;
    if (a.startsWith('-')) return { kind: 'refuse', why: `the option ${a} is not accepted from the agent` };
    ids.push(a);
  }
  if (ids.length !== 1) return { kind: 'refuse', why: 'give exactly one intent id' };
  return { kind: 'select', intentId: ids[0]! };
}
