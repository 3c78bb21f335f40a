// The engine loads the intents parser and the ledger schema only when an
// update asks for them (src/core/governance/on-demand.ts), and a parse of
// active_intents.yaml is cached by content (src/store/intents-cache.ts). This
// file must not preload them: each test file gets fresh modules, so the first
// hooks below really run without them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { IntentsParse } from '../../src/core/governance/intents.js';
import { loadOnDemand, NotLoaded, onDemand } from '../../src/core/on-demand.js';
import { bindSelection } from '../../src/engine/governance/select.js';
import { runHook } from '../../src/engine/engine.js';
import { FileSessionStore } from '../../src/store/file-store.js';
import { intentsCacheDir, parseIntentsCached } from '../../src/store/intents-cache.js';
import { readLedger } from '../../src/store/ledger.js';
import { makeProject, post, pre } from './helpers.js';

describe('modules loaded on demand by the engine', () => {
  it('a governed session works from a cold start, and a rerun after loading counts nothing twice', async () => {
    const p = makeProject({ git: true });
    const env = { HOME: p.home, ROZ_STORAGE_PATH: p.store, CLAUDE_PLUGIN_ROOT: join(import.meta.dirname, '../../plugin') };
    expect(() => onDemand('intents-parser')).toThrow(NotLoaded);
    expect(() => onDemand('trace-schema')).toThrow(NotLoaded);

    // Needs the parser: the engine loads it and runs the update again.
    const denied = await runHook('PreToolUse', JSON.stringify(pre(p.root, 'Write', { file_path: 'src/auth/jwt.ts', content: 'x' })), { env });
    expect(denied.verdict.kind === 'deny' && denied.verdict.code).toBe('INTENT_REQUIRED');
    expect(denied.stdout).toMatch(/INT-001/);
    expect(onDemand('intents-parser').parseActiveIntents).toBeTypeOf('function');
    expect(() => onDemand('trace-schema')).toThrow(NotLoaded);
    const cached = readdirSync(intentsCacheDir(p.store));
    expect(cached).toHaveLength(1);

    const store = new FileSessionStore(p.store);
    const bound = await bindSelection({ store, storeRoot: p.store, root: p.root, intentId: 'INT-001', sessionId: 'sess-1', via: 'cli', now: new Date() });
    expect(bound.ok).toBe(true);
    const allowed = await runHook('PreToolUse', JSON.stringify(pre(p.root, 'Write', { file_path: 'src/auth/jwt.ts', content: 'x' })), { env });
    expect(allowed.verdict.kind).toBe('none');

    // A ledger append checks its record by hand (core/governance/trace-check.ts): the zod schema stays unloaded.
    p.write('src/auth/jwt.ts', 'export const a = 1;\n');
    const recorded = await runHook('PostToolUse', JSON.stringify(post(p.root, 'Write', { file_path: 'src/auth/jwt.ts', content: 'export const a = 1;\n' })), {
      env,
    });
    expect(recorded.stderr).toBe('');
    expect(() => onDemand('trace-schema')).toThrow(NotLoaded);
    await loadOnDemand('trace-schema'); // readLedger (the CLI's reader) checks with the schema
    const ledger = readLedger(join(p.root, '.orchestration/agent_trace.jsonl'));
    expect(ledger.records).toHaveLength(1);
    expect(ledger.bad).toEqual([]);

    // Exactly once in state and trace.
    const state = store.read('sess-1')!;
    expect(state.counters.PostToolUse).toBe(1);
    expect(state.counters.PreToolUse).toBe(2);
    const events = store.readTrace('sess-1').map((r) => r.event);
    expect(events.filter((e) => e === 'PostToolUse')).toHaveLength(1);
    expect(events.filter((e) => e === 'roz:LedgerAppended')).toHaveLength(1);
    expect(readdirSync(intentsCacheDir(p.store))).toEqual(cached);
  });
});

describe('intents parse cache', () => {
  const text = 'active_intents:\n  - id: A\n    name: a\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n';

  it('is used by a new process, but only for the exact text and parser it was made from', async () => {
    const p = makeProject();
    const dir = intentsCacheDir(p.store);
    await freshParse(text, dir);
    const [entry] = readdirSync(dir);
    const file = join(dir, entry!);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { parser: string; text: string; parse: { intents: Array<{ owned_scope: string[] }> } };
    expect(doc.text).toBe(text);
    // A new process takes the entry as it is (this one says scope "lib/**")...
    doc.parse.intents[0]!.owned_scope = ['lib/**'];
    writeFileSync(file, JSON.stringify(doc));
    const served = await freshParse(text, dir);
    expect(served.ok && served.intents[0]!.owned_scope).toEqual(['lib/**']);
    // ...but not when it names another text (a name collision) or another parser build.
    for (const foreign of [
      { ...doc, text: `${text}# other\n` },
      { ...doc, parser: 'an-older-roz' },
    ]) {
      writeFileSync(file, JSON.stringify(foreign));
      const parsed = await freshParse(text, dir);
      expect(parsed.ok && parsed.intents[0]!.owned_scope).toEqual(['src/**']);
      expect((JSON.parse(readFileSync(file, 'utf8')) as { parse: unknown }).parse).toEqual(parsed);
    }
  });

  it('re-parses a corrupt or malformed entry instead of trusting it, and rewrites it', async () => {
    const p = makeProject();
    const dir = intentsCacheDir(p.store);
    await freshParse(text, dir);
    const file = join(dir, readdirSync(dir)[0]!);
    const good = readFileSync(file, 'utf8');
    for (const broken of ['', '{"parser":', JSON.stringify({ ...JSON.parse(good), parse: { ok: true, intents: [{ id: 1 }] } })]) {
      writeFileSync(file, broken);
      const parsed = await freshParse(text, dir);
      expect(parsed.ok && parsed.intents[0]!.id).toBe('A');
      expect(readFileSync(file, 'utf8')).toBe(good);
    }
  });

  it('keeps at most 64 entries', async () => {
    await loadOnDemand('intents-parser');
    const p = makeProject();
    const dir = intentsCacheDir(p.store);
    for (let i = 0; i < 70; i++) parseIntentsCached(`${text}# ${i}\n`, dir);
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(64);
  });
});

/** parseIntentsCached as a new process runs it: fresh modules, nothing in memory. */
async function freshParse(text: string, dir: string): Promise<IntentsParse> {
  vi.resetModules();
  const { loadAllOnDemand } = await import('../../src/core/on-demand.js');
  await loadAllOnDemand();
  const { parseIntentsCached: parse } = await import('../../src/store/intents-cache.js');
  return parse(text, dir);
}
