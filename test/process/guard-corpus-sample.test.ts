// A sample of the guard corpus sent through the built hook as PreToolUse Bash
// events, the way the client sends them, in a repo without intents and in a
// governed one (an intent owning `**`): the hook's decision matches the
// in-process judgement that test/core/guard/guard-corpus.test.ts measures on
// the whole corpus, so those rates are the real hook's.
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MUST_ASK, SAFE } from '../core/guard/guard-corpus.js';
import { makeProject } from '../governance/helpers.js';
import { payloads, rozBin, runHook, runProcess, sandbox, type ProcResult } from '../helpers/hooks.js';
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

/** A project outside /tmp (where /tmp is scratch, not the project's neighbourhood). */
function projectBase(): string {
  const tmp = realpathSync('/tmp');
  const candidates = [fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url)), join(homedir(), '.cache'), '/var/tmp'];
  const dir = candidates.find((d) => {
    mkdirSync(d, { recursive: true });
    const real = realpathSync(d);
    return real !== tmp && !real.startsWith(`${tmp}/`);
  });
  if (!dir) throw new Error('no directory outside /tmp for the governed test project');
  const base = join(dir, 'roz-guard-sample');
  mkdirSync(base, { recursive: true });
  return base;
}

describe('guard corpus sample through the built hook', () => {
  it('repo without intents: must-ask cases are asked, safe ones pass', { timeout: 600_000 }, async () => {
    const repo = realpathSync(tempDir('plain-', projectBase()));
    const { env: base } = sandbox();
    // A home where homes live (the sandbox's is under /tmp, which is scratch).
    const env = { ...base, HOME: tempDir('home-', projectBase()) };
    const p = payloads('corpus-plain', repo);
    const got = await judgeAll([...ASK, ...OK], async (command) => decision(await runHook('PreToolUse', p.pre('Bash', { command }), env)));
    const r = report('repo without intents', got);
    if (r.missed.length + r.falseAlarms.length > 0) console.log(JSON.stringify(r));
    expect(r).toEqual({ missed: [], falseAlarms: [] });
  });

  it('governed repo, intent owning **: must-ask cases are asked, safe ones pass', { timeout: 600_000 }, async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = projectBase();
    const proj = makeProject({
      git: true,
      intents: 'active_intents:\n  - id: INT-ALL\n    name: Everything\n    status: IN_PROGRESS\n    owned_scope: ["**"]\n',
    });
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    const { env: base } = sandbox();
    const env = { ...base, HOME: tempDir('home-', projectBase()), CLAUDE_PROJECT_DIR: proj.root, TMPDIR: tmpdir() };
    const sid = 'corpus-gov';
    const p = payloads(sid, proj.root);
    await runHook('SessionStart', p.sessionStart(), env);
    const sel = await runProcess(process.execPath, [rozBin, 'intent', 'select', 'INT-ALL', '--session', sid], '', base, proj.root);
    expect(sel.code, sel.stderr).toBe(0);
    const got = await judgeAll([...ASK, ...OK], async (command) => decision(await runHook('PreToolUse', p.pre('Bash', { command }), env)));
    const r = report('governed repo', got);
    if (r.missed.length + r.falseAlarms.length > 0) console.log(JSON.stringify(r));
    // The governed false alarms the corpus test measures (docs/guard.md) are the only ones allowed here.
    expect({ missed: r.missed, falseAlarms: r.falseAlarms.filter((c) => !GOVERNED_ALARMS.has(c)) }).toEqual({ missed: [], falseAlarms: [] });
  });
});
