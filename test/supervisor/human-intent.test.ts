// The intents view's select / clear goes through the supervisor (trusted):
// written under the session lock, traced as the human's; the agent's own
// selection through the roz CLI is never recorded as the human's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/store/file-store.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { roz } from '../helpers/hooks.js';
import { relay, SID, startSupervisor, traceRecords, until } from './helpers/channel.js';
import { tempDir } from '../helpers/temp-dir.js';

let sup: Supervisor | null = null;
afterEach(async () => {
  await sup?.close();
  sup = null;
});

describe('the human selects an intent at roz run', () => {
  it('selects an IN_PROGRESS intent, refuses a DRAFT one with the reason, clears; each traced with via "human"', async () => {
    const s = await startSupervisor();
    sup = s.sup;
    expect((await s.sup.selectIntent('INT-1')).ok).toBe(false); // no session yet
    const repo = tempDir('roz-governed-');
    mkdirSync(join(repo, '.orchestration'));
    writeFileSync(
      join(repo, '.orchestration', 'active_intents.yaml'),
      'active_intents:\n  - id: INT-1\n    name: cleanup\n    status: IN_PROGRESS\n    owned_scope: ["build/**"]\n  - id: INT-2\n    name: later\n    status: DRAFT\n    owned_scope: ["docs/**"]\n',
    );
    const store = new FileSessionStore(s.store);
    await store.update(SID, new Date(), (st) => {
      st.governance = { intent_id: null, selected_at: null, selected_via: null, files: {}, mutations: 0, model_id: null, project_root: repo };
      return { value: null, trace: [] };
    });
    await relay(s.env, { kind: 'allow', reason: 'ok' });
    await until(() => s.sup.sessionId === SID, 'the session seen');

    expect(await s.sup.selectIntent('INT-1')).toEqual({ ok: true, message: 'selected INT-1' });
    expect(store.read(SID)!.governance).toMatchObject({ intent_id: 'INT-1', selected_via: 'human' });
    const draft = await s.sup.selectIntent('INT-2');
    expect(draft.ok).toBe(false);
    expect(draft.message).toMatch(/INT-2 is DRAFT/);
    expect(store.read(SID)!.governance).toMatchObject({ intent_id: 'INT-1' });
    expect(await s.sup.selectIntent(null)).toEqual({ ok: true, message: 'cleared INT-1' });
    expect(store.read(SID)!.governance).toMatchObject({ intent_id: null, selected_via: 'human' });
    // The agent selecting for itself with the roz CLI (its own Bash) is recorded as the CLI's, never as the human's.
    const agent = await roz(['intent', 'select', 'INT-1', '--session', SID, '--project', repo], { ...s.env, ROZ_SOCKET: '', ROZ_TOKEN: '' });
    expect(agent.code, agent.stderr).toBe(0);
    expect(store.read(SID)!.governance).toMatchObject({ intent_id: 'INT-1', selected_via: 'cli' });
    const traced = traceRecords(s.store).filter((r) => String(r.event).startsWith('roz:Intent'));
    expect(traced.map((r) => [r.event, r.intent_id, r.via])).toEqual([
      ['roz:IntentSelected', 'INT-1', 'human'],
      ['roz:IntentCleared', 'INT-1', 'human'],
      ['roz:IntentSelected', 'INT-1', 'cli'],
    ]);
  });
});
