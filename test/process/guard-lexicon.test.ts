import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloads, runHook, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';
describe('probe', () => {
  it('shows', { timeout: 60_000 }, async () => {
    const repo = realpathSync(tempDir('roz-guard-lexicon-'));
    const { env } = sandbox();
    const p = payloads('lex', repo);
    const r = await runHook('PreToolUse', p.pre('Bash', { command: 'docker exec db flyctl apps destroy shop --yes -a prod' }), env);
    console.log(JSON.stringify(r.json, null, 1), r.stderr);
    expect(1).toBe(1);
  });
});
