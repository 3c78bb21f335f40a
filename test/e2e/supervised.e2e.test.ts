// `npm run demo` end to end: `roz run claude` with the real client on the
// scripted model, in a real pseudo-terminal read back through @xterm/headless.
// A human's keys: Enter to start, `g` at roz's scope question (adds the file
// to the intent), `a` at its destructive-command prompt, /exit at the end.
// Then roz's own records must show what the screen showed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEMO_INTENT, DESTRUCTIVE_COMMAND, FINAL_TEXT, IN_SCOPE_FILE, OUT_OF_SCOPE_FILE, demoPaths } from '../../scripts/demo/scenario.js';
import { startPtyScreen, type PtyScreen } from '../supervisor/helpers/pty-screen.js';
import { killTree } from './harness/kill-tree.js';
import { assertRozBuilt, traceDigest, type RozState, type TraceEvent } from './harness/roz.js';
import { CLAUDE_BIN, REPO_ROOT, ROZ_BIN } from './harness/workspace.js';

const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'USER', 'LOGNAME', 'TZ'];
/** How long the human "thinks" before pressing the approval key: the trace must show at least this wait. */
const THINK_MS = 1_500;

describe.sequential('npm run demo: roz run claude, real client, scripted model, a human at the keyboard', () => {
  let term: PtyScreen | undefined;
  let running = false;
  let dir: string | undefined;
  afterEach(() => {
    // A failed run: the demo, roz run, claude and its hooks all go.
    if (term && running) killTree(term.pid);
    term = undefined;
    if (dir && !process.env.ROZ_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  test('scope question answered with `g` (intent widened), destructive prompt with `a`, blocked stop, review COMPLETE, stats after /exit', async () => {
    assertRozBuilt();
    expect(existsSync(CLAUDE_BIN), `the pinned client is missing at ${CLAUDE_BIN}`).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'roz-e2e-demo-'));
    const env: Record<string, string> = { TERM: 'xterm-256color', COLORTERM: 'truecolor', ROZ_DEMO_DIR: dir };
    if (process.env.ROZ_HOOKS) env.ROZ_HOOKS = process.env.ROZ_HOOKS;
    for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k]!;
    const started = Date.now();
    const t = startPtyScreen(process.execPath, [join(REPO_ROOT, 'scripts', 'demo.mjs')], { cols: 120, rows: 40, env, cwd: REPO_ROOT });
    term = t;
    running = true;
    void t.exited.then(() => (running = false));
    const p = demoPaths(dir);
    const apiLog = (): string => {
      try {
        return readFileSync(join(dir!, 'fake-api.log'), 'utf8');
      } catch {
        return '(no fake-api.log yet)';
      }
    };
    const step = async (cond: RegExp | string, what: string, ms: number): Promise<string> =>
      t.waitFor(cond, what, ms).catch((err: Error) => {
        throw new Error(`${err.message}\n--- fake API log:\n${apiLog()}`);
      });

    // The banner says what will happen and what to press.
    await step('Press Enter to start', 'the demo banner', 30_000);
    expect(t.screen()).toMatch(/SCOPE_VIOLATION/);
    expect(t.screen()).toMatch(/type \/exit/);
    t.write('\r');

    // The out-of-scope write: roz asks, offering to add the file to the intent.
    const scopeAsk = await step(/APPROVAL NEEDED · Write · SCOPE_VIOLATION[\s\S]*\[a\] approve once/, "roz's scope question, its keys armed", 60_000);
    expect(scopeAsk).toContain(`[g] add ${OUT_OF_SCOPE_FILE} to ${DEMO_INTENT}`);
    expect(readFileSync(join(p.repo, OUT_OF_SCOPE_FILE), 'utf8'), 'not written while the human decides').toContain('"1.0.0"');
    await new Promise((r) => setTimeout(r, THINK_MS));
    t.write('g');

    // roz's approval prompt comes to the front, with the full command.
    const prompt = await step(/APPROVAL NEEDED · Bash · DESTRUCTIVE_BLOCKED[\s\S]*\[a\] approve once/, "roz's approval prompt, its keys armed", 60_000);
    expect(prompt).toContain(`$ ${DESTRUCTIVE_COMMAND}`);
    expect(prompt).toMatch(new RegExp(`intent ${DEMO_INTENT}`)); // status line
    expect(existsSync(join(p.repo, 'build')), 'build/ must still exist while the human decides').toBe(true);
    // The human looks back at Claude while the hook waits: the request stays on screen under Claude's pane.
    t.write('\x1d');
    const both = await step(
      /running PreToolUse hook[\s\S]*── roz ─[\s\S]*APPROVAL NEEDED[\s\S]*Ctrl-\] to answer here/,
      "Claude's pane with the waiting request under it",
      20_000,
    );
    expect(both).toContain(`$ ${DESTRUCTIVE_COMMAND}`);
    // Claude's own output reaches the terminal only as screen cells, so every BEL here is roz's (OSC terminators aside):
    // one per request (the scope question, then this one), none for going back to Claude.
    expect(
      t
        .raw()
        .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
        .split('\x07').length - 1,
      'one bell per request',
    ).toBe(2);
    await new Promise((r) => setTimeout(r, THINK_MS));
    t.write('\x1d');
    await step(/\[a\] approve once/, 'the keyboard back in the panel', 10_000);
    t.write('a');

    // Back on Claude's screen: the blocked stop, the reviewer, the end of the turn.
    // (Which block text depends on the A/B template roz picked; both name the session.)
    await step(/Stop hook reported a problem[\s\S]*SESSION_ID=[0-9a-f-]{36}/, 'the blocked stop on screen', 60_000);
    const end = await step(FINAL_TEXT.slice(0, 40), 'the end of the scripted turn', 60_000);
    expect(end).toMatch(/review approved/); // status line
    t.write('/exit');
    await step(/❯ \/exit/, '/exit typed', 10_000);
    t.write('\r');

    // After claude exits: the stats view, then the demo's epilogue.
    const stats = await step(/roz demo finished \(roz run exited 0\)/, 'the stats view and the epilogue', 30_000);
    expect(stats).toMatch(/denied\/asked\s+.*SCOPE_VIOLATION=1/);
    expect(stats).toMatch(/decisions COMPLETE 1/);
    expect(stats).toMatch(/human gates\s+2 decided \(2 approved, 0 denied\)/);
    expect(await t.exited).toBe(0);
    const sid = /session ([0-9a-f-]{36})/.exec(stats)?.[1];
    expect(sid, stats).toBeTruthy();

    // roz's records agree with the screen.
    const rozEnv = { ...env, HOME: p.home, ROZ_STORAGE_PATH: p.storage };
    const roz = <T>(...args: string[]): T => {
      const r = spawnSync(process.execPath, [ROZ_BIN, ...args, '--json'], { cwd: p.repo, env: rozEnv, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`roz ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      return JSON.parse(r.stdout) as T;
    };
    const state = roz<RozState>('debug', sid!);
    const trace = roz<TraceEvent[]>('trace', sid!);
    const why = `\n--- trace:\n${traceDigest(trace)}\n--- fake API log:\n${apiLog()}`;
    expect(state.review.status, why).toBe('approved');
    expect(state.review.decision, why).toMatchObject({ kind: 'complete', valid: true });
    expect(state.review.breaker.trips, why).toEqual([]);
    // roz run launched the client with its settings: the session is enforced.
    expect((state as unknown as { enforcement: string }).enforcement, why).toBe('enforced');

    const denied = trace.filter((e) => e.event === 'PreToolUse' && (e.verdict as { code?: string } | undefined)?.code === 'SCOPE_VIOLATION');
    expect(denied, why).toHaveLength(1);
    expect(JSON.stringify(denied[0]!.tool_input), why).toContain(OUT_OF_SCOPE_FILE);
    expect(denied[0]!.verdict, why).toMatchObject({ kind: 'ask', widen: { intent_id: DEMO_INTENT, globs: [OUT_OF_SCOPE_FILE] } });

    const human = trace.filter((e) => e.event === 'roz:HumanDecision');
    expect(human, why).toHaveLength(2);
    expect(human[0], why).toMatchObject({ decided_by: 'human', decision: 'allow', scope: 'scope', tool_name: 'Write', code: 'SCOPE_VIOLATION' });
    expect(human[1], why).toMatchObject({ decided_by: 'human', decision: 'allow', scope: 'once', tool_name: 'Bash', code: 'DESTRUCTIVE_BLOCKED' });
    for (const h of human) expect(h.wait_ms as number, why).toBeGreaterThanOrEqual(THINK_MS);

    // `g` widened the intent in the file (written by the supervisor) and the ledger names the human.
    const intents = parseYaml(readFileSync(join(p.repo, '.orchestration', 'active_intents.yaml'), 'utf8')) as {
      active_intents: Array<{ id: string; owned_scope: string[] }>;
    };
    expect(intents.active_intents.find((i) => i.id === DEMO_INTENT)?.owned_scope, why).toEqual(['src/**', 'build/', OUT_OF_SCOPE_FILE]);
    const ledger = readFileSync(join(p.repo, '.orchestration', 'agent_trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { metadata: { 'dev.roz': Record<string, unknown> } });
    const widened = ledger.find((r) => r.metadata['dev.roz'].tool_name === 'roz:scope-widened');
    expect(widened?.metadata['dev.roz'], why).toMatchObject({
      intent_id: DEMO_INTENT,
      scope_added: [OUT_OF_SCOPE_FILE],
      decided_by: expect.stringMatching(/\S/),
    });
    // Nothing changed behind roz's back: the stop was not blocked by the scope audit.
    expect(
      trace.some((e) => e.event === 'roz:ScopeAudit'),
      why,
    ).toBe(false);

    expect(
      trace.some((e) => e.event === 'roz:ReviewBlocked'),
      why,
    ).toBe(true);
    // Selected with roz's MCP tool (after the client's WaitForMcpServers), bound to the session by the hook.
    expect(apiLog()).toMatch(/mcp__plugin_roz_\w+__select_active_intent\(\{"intent_id":"INT-042"\}\)/);
    expect(
      trace.some((e) => e.event === 'roz:IntentSelected' && e.intent_id === DEMO_INTENT && e.via === 'hook'),
      why,
    ).toBe(true);
    expect(state.governance, why).toMatchObject({ intent_id: DEMO_INTENT, selected_via: 'hook' });

    // And the repository: in-scope file written, the widened file bumped, build/ deleted after the approval.
    expect(existsSync(join(p.repo, IN_SCOPE_FILE))).toBe(true);
    expect(readFileSync(join(p.repo, OUT_OF_SCOPE_FILE), 'utf8')).toContain('"1.1.0"');
    expect(existsSync(join(p.repo, 'build'))).toBe(false);
    expect(apiLog()).toMatch(/\[spawn-reviewer\] <- Stop hook feedback/);
    expect(Date.now() - started).toBeLessThan(120_000);
  }, 150_000);
});
