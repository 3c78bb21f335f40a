// Live reload in `roz run`: active_intents.yaml and the config are re-read
// when they change on disk, from file events (polling only as the fallback).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/store/file-store.js';
import { FileWatch } from '../../src/supervisor/file-watch.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { relay, SID, sandboxEnv, startSupervisor, until } from './helpers/channel.js';
import { tempDir } from '../helpers/temp-dir.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const intentsYaml = (ids: string[]) =>
  `active_intents:\n${ids.map((id) => `  - id: ${id}\n    name: work ${id}\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n`).join('')}`;

describe.each([false, true])('FileWatch (polling %s)', (poll) => {
  it.each(['write', 'rename'])('hears a %s of the file (an editor saving by rename too), and nothing about its neighbours', async (how) => {
    const dir = tempDir('roz-watch-');
    const file = join(dir, 'active_intents.yaml');
    writeFileSync(file, 'a');
    const heard: string[] = [];
    const w = new FileWatch((f) => heard.push(f), { poll, pollMs: 50 });
    closers.push(() => w.close());
    w.add(file);
    await w.ready;
    expect(w.mode).toBe(poll ? 'polling' : 'events');
    writeFileSync(join(dir, 'other.txt'), 'x');
    let n = 0;
    const change = (): void => {
      n += 1;
      if (how === 'write') writeFileSync(file, 'b'.repeat(n + 1));
      else {
        writeFileSync(join(dir, '.tmp-save'), 'c'.repeat(n + 2));
        renameSync(join(dir, '.tmp-save'), file);
      }
    };
    change();
    // Polling takes its first stat some time after `ready`: a change before it is the baseline, so change again until heard.
    await until(() => heard.length >= 1 || (poll && n < 100 && (change(), false)), `the ${how} heard`);
    if (!poll) expect(n).toBe(1);
    expect(new Set(heard)).toEqual(new Set([file]));
  });
});

describe('the supervisor reloads what it shows', () => {
  let sup: Supervisor | null = null;
  afterEach(async () => {
    await sup?.close();
    sup = null;
  });

  it('active_intents.yaml edited on disk: the intents view has the new intent; config edited: reloaded and its problems shown', async () => {
    const s = await startSupervisor();
    sup = s.sup;
    const repo = tempDir('roz-governed-');
    mkdirSync(join(repo, '.orchestration'));
    const file = join(repo, '.orchestration', 'active_intents.yaml');
    writeFileSync(file, intentsYaml(['INT-1']));
    await new FileSessionStore(s.store).update(SID, new Date(), (st) => {
      st.governance = { intent_id: 'INT-1', selected_at: null, selected_via: 'cli', files: {}, mutations: 0, model_id: null, project_root: repo };
      return { value: null, trace: [] };
    });
    await relay(s.env, { kind: 'allow', reason: 'ok' });
    await until(() => s.sup.snapshot().intents?.intents.length === 1, 'the intents read');
    await s.sup.fileWatch.ready;
    writeFileSync(file, intentsYaml(['INT-1', 'INT-2']));
    await until(() => s.sup.events.tail(50).some((e) => e.event === 'roz:IntentsReloaded'), 'the change heard');
    await until(
      () =>
        s.sup
          .snapshot()
          .intents?.intents.map((i) => i.id)
          .join() === 'INT-1,INT-2',
      'the new intent in the snapshot',
    );

    writeFileSync(s.sup.snapshot().config.path, '[review]\nmode = "sometimes"\n');
    await until(() => s.sup.events.tail(50).some((e) => e.event === 'roz:ConfigReloaded'), 'the config change heard');
    await until(() => s.sup.snapshot().config.problems.length > 0, 'the bad value reported');
  });

  it("the project's .roz/config.toml (found from where roz run started) is watched too", async () => {
    const { env } = sandboxEnv();
    const repo = tempDir('roz-project-');
    mkdirSync(join(repo, '.roz'));
    const projectConfig = join(repo, '.roz', 'config.toml');
    writeFileSync(projectConfig, '');
    sup = await Supervisor.start({ env: { ...env, CLAUDE_PROJECT_DIR: repo }, cwd: repo, approvalTimeoutMs: 10_000, log: () => {} });
    await sup.fileWatch.ready;
    writeFileSync(projectConfig, '[review]\nmode = "sometimes"\n');
    await until(
      () => sup!.events.tail(50).some((e) => e.event === 'roz:ConfigReloaded' && e.summary.startsWith(projectConfig)),
      'the project config change heard',
    );
    expect(sup.snapshot().config.problems.join('\n')).toMatch(/mode/);
  });
});
