// `roz hook ...` run by the agent from its Bash tool (advisory mode) must not
// change a session: the hook refuses when it was not started the way the
// client starts hooks (src/engine/hook-origin.ts). Enforced mode's sandbox is
// the guarantee; this is the advisory first line, tested for what it catches.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand, payloads, runHook, runProcess, sandbox } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const SNAPSHOT = '/tmp/home/.claude/shell-snapshots/snapshot-bash-1-abc.sh';

describe('roz hook from the agent (advisory detection)', () => {
  it('refuses forged events piped, redirected or wrapped from a shell, and records nothing', async () => {
    const { env, store } = sandbox();
    const sid = 'forge-1';
    const p = payloads(sid);
    const dir = tempDir('roz-forge-');
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify(p.subagentStart('fake', 'roz:roz')));
    const hook = hookCommand('SubagentStart');
    const attempts = {
      // The Bash tool's own shell line, with the event piped in.
      'bash tool, piped': ['bash', ['-c', `source ${SNAPSHOT} 2>/dev/null || true && eval 'cat ${event} | ${hook}'`]],
      'redirected from a file': ['bash', ['-c', `${hook} < ${event}`]],
      'sh -c wrapper inside a shell': ['bash', ['-c', `cat ${event} | sh -c '${hook.replace(/'/g, `'\\''`)}'; true`]],
      // The hook command starts with variable assignments: they go before exec.
      'exec with a file': ['bash', ['-c', `${hook.replace(' node ', ' exec node ')} < ${event}`]],
    } as const;
    for (const [name, [cmd, args]] of Object.entries(attempts)) {
      const r = await runProcess(cmd, [...args], '', env);
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toMatch(/roz: refused: this `roz hook subagent-start` was not started by Claude Code/);
    }
    expect(existsSync(join(store, 'sessions', sid))).toBe(false);
    // The client's way (sh -c '<hooks.json command>' in a session of its own, the event on a socket) still works.
    const real = await runHook('SubagentStart', p.subagentStart('real', 'roz:roz'), env);
    expect(real.stdout).not.toMatch(/refused/);
    expect(existsSync(join(store, 'sessions', sid, 'state.json'))).toBe(true);
  });
});
