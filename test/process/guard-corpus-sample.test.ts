// A sample of the guard corpus sent through the built hook as PreToolUse Bash
// events, the way the client sends them, in a repo without intents and in a
// governed one (an intent owning `**`): the hook's decision matches the
// in-process judgement that test/core/guard/guard-corpus.test.ts measures on
// the whole corpus, so those rates are the real hook's.
import { governedHookProject } from './guard-project.js';
import { outsideTmpDir } from '../helpers/outside-tmp.js';
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUST_ASK, SAFE } from '../core/guard/guard-corpus.js';
import { payloads, runHook, sandbox, type ProcResult } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const decision = (r: ProcResult): string => r.json?.hookSpecificOutput?.permissionDecision ?? 'none';
const flagged = (d: string): boolean => d === 'ask' || d === 'deny';

// Every 25th case of each class, and every issue 22 case.
const sample = (cases: typeof MUST_ASK): string[] => cases.filter(([, src], i) => i % 25 === 0 || src === 'issue22').map(([c]) => c);
const ASK = sample(MUST_ASK);
/** Safe cases a governed repo still asks about, on purpose or as a known gap (docs/guard.md, "Measured"). */
const GOVERNED_ALARMS = new Set(['pip install -r requirements.txt', 'perl -e \'system("rm -rf /tmp/x")\'', '`pwd`']);
const OK = sample(SAFE);

async function judgeAll(commands: string[], judge: (command: string) => Promise<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < commands.length; i += 4) {
    const batch = commands.slice(i, i + 4);
    const ds = await Promise.all(batch.map(judge));
    batch.forEach((c, j) => out.set(c, ds[j]!));
  }
  return out;
}

function report(kind: string, got: Map<string, string>): { missed: string[]; falseAlarms: string[] } {
  const missed = ASK.filter((c) => !flagged(got.get(c)!));
  const falseAlarms = OK.filter((c) => flagged(got.get(c)!));
  console.log(
    `guard corpus sample through the built hook, ${kind}: caught ${ASK.length - missed.length}/${ASK.length}, safe asked ${falseAlarms.length}/${OK.length}`,
  );
  return { missed, falseAlarms };
}

describe('guard corpus sample through the built hook', () => {
  it('repo without intents: must-ask cases are asked, safe ones pass', { timeout: 600_000 }, async () => {
    const repo = realpathSync(tempDir('plain-', outsideTmpDir('roz-guard-sample')));
    const { env: base } = sandbox();
    // A home where homes live (the sandbox's is under /tmp, which is scratch).
    const env = { ...base, HOME: tempDir('home-', outsideTmpDir('roz-guard-sample')) };
    const p = payloads('corpus-plain', repo);
    const got = await judgeAll([...ASK, ...OK], async (command) => decision(await runHook('PreToolUse', p.pre('Bash', { command }), env)));
    const r = report('repo without intents', got);
    if (r.missed.length + r.falseAlarms.length > 0) console.log(JSON.stringify(r));
    expect(r).toEqual({ missed: [], falseAlarms: [] });
  });

  it('governed repo, intent owning **: must-ask cases are asked, safe ones pass', { timeout: 600_000 }, async () => {
    const { env, p } = await governedHookProject({ base: 'roz-guard-sample', sid: 'corpus-gov', intent: 'INT-ALL', name: 'Everything', scope: '**' });
    const got = await judgeAll([...ASK, ...OK], async (command) => decision(await runHook('PreToolUse', p.pre('Bash', { command }), env)));
    const r = report('governed repo', got);
    if (r.missed.length + r.falseAlarms.length > 0) console.log(JSON.stringify(r));
    // The governed false alarms the corpus test measures (docs/guard.md) are the only ones allowed here.
    expect({ missed: r.missed, falseAlarms: r.falseAlarms.filter((c) => !GOVERNED_ALARMS.has(c)) }).toEqual({ missed: [], falseAlarms: [] });
  });
});
