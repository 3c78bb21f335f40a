// NODE_EXTRA_CA_CERTS (what Claude Code's docs tell users behind a corporate
// TLS proxy to set) makes every node process parse the whole CA bundle at
// startup: 38 ms per hook on this machine, more than roz's own work. hooks.json
// starts the hook without it and hands the user's value over; the launcher puts
// it back for what the hook starts. Both halves, through the real hooks.json
// command: the hook does not load the bundle, and the background
// `roz otel flush` a Stop starts still trusts the user's CA over https.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_COMMAND_PREFIX } from '../../src/engine/hook-origin.js';
import { hookCommand, payloads, repoRoot, roz, runHook, sandbox } from '../helpers/hooks.js';
import { until } from '../helpers/otlp-receiver.js';

const tls = join(repoRoot, 'test', 'fixtures', 'tls');
const CA = join(tls, 'cert.pem');

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** An https OTLP endpoint whose certificate only the fixture CA vouches for. */
async function httpsCollector(): Promise<{ url: string; posts: string[] }> {
  const posts: string[] = [];
  const server = createServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(CA) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      posts.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, posts };
}

describe('NODE_EXTRA_CA_CERTS and the hook process', () => {
  it('every hooks.json command starts node without it (the prefix the origin check knows)', () => {
    const hooks = JSON.parse(readFileSync(join(repoRoot, 'plugin', 'hooks', 'hooks.json'), 'utf8')).hooks as Record<string, unknown>;
    for (const event of Object.keys(hooks)) expect(hookCommand(event).startsWith(HOOK_COMMAND_PREFIX)).toBe(true);
  });

  it('the hook does not load the bundle: a path node cannot read draws no warning, and the call is judged', async () => {
    const { env } = sandbox({ NODE_EXTRA_CA_CERTS: '/nonexistent/roz-test-ca.pem' });
    const p = payloads('ca-0000-1111');
    const r = await runHook('PreToolUse', p.pre('Bash', { command: 'rm -rf /' }), env);
    expect(r.stderr).not.toMatch(/extra certs/i);
    expect(r.json?.hookSpecificOutput?.permissionDecision).toBe('ask');
    // The control: node itself, started with the same environment, loads it at
    // startup and warns. Node 20 does; Node 26 defers it to the first TLS
    // connection (no cost to save there, and no warning from either).
    const plain = await roz(['--version'], env);
    if (Number(process.versions.node.split('.')[0]) < 26) expect(plain.stderr).toMatch(/Ignoring extra certs from `\/nonexistent\/roz-test-ca.pem`/);
  });

  it("the flush a Stop starts gets the user's CA back and exports over https", async () => {
    const rx = await httpsCollector();
    const { env } = sandbox({ OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const p = payloads('ca-2222-3333');
    await runHook('UserPromptSubmit', p.prompt('#roz go'), env);
    await runHook('PreToolUse', p.pre('Bash', { command: 'gh pr merge 3' }), env);
    // Without the CA the collector is not trusted: nothing arrives.
    const untrusted = await roz(['otel', 'flush'], env);
    expect(untrusted.stdout + untrusted.stderr).toMatch(/certificate|self.signed|UNABLE_TO_VERIFY|DEPTH_ZERO/i);
    expect(rx.posts).toEqual([]);
    // The hook runs without it too, but hands it to the flush it starts in the background.
    const stop = await runHook('Stop', p.stop(), { ...env, NODE_EXTRA_CA_CERTS: CA });
    expect(stop.json?.decision).toBe('block');
    await until(() => rx.posts.includes('/v1/logs'), 'the background flush to export over https with the user CA');
  });
});
