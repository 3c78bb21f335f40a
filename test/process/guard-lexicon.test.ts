// Issue 30 through the built hook (plugin/bin/roz, JSON on stdin): each class the effects
// lexicon judges — destroying verbs of CLIs no rule names (bare and behind a runner), publishing
// and visibility, secrets files, sync with deletion, switching safety off, HTTP DELETE,
// hyphenated binaries — is asked with the object and where it lives in the reason; dry runs,
// help, package removals and verbs in arguments pass. The lexicon is its own hook file
// (hook-effects.cjs), loaded on demand: these calls load it in a fresh hook process.
import { governedHookProject } from './guard-project.js';
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloads, runHook, sandbox, type ProcResult } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const decision = (r: ProcResult): { decision: string | undefined; reason: string } => ({
  decision: r.json?.hookSpecificOutput?.permissionDecision,
  reason: r.json?.hookSpecificOutput?.permissionDecisionReason ?? '',
});

/** Command, and the exact effect the reason must carry (what, which object, where, through what). */
const ASK: Array<[string, string, string?]> = [
  // destroying verbs of CLIs no rule names
  ['koyeb app delete shop', 'deletes shop (koyeb app delete)'],
  ['argocd app delete shop --cascade --project prod', 'deletes shop in prod (argocd app delete)'],
  ['redis-cli -h prod FLUSHALL', 'flushes all its data on prod (redis-cli FLUSHALL)'],
  ['docker exec tools koyeb app delete shop', 'deletes shop (koyeb app delete)', 'docker exec'],
  ['npx wrangler d1 delete shop-db -y', 'deletes shop-db (wrangler d1 delete)', 'npx'],
  ['flyctl apps destroy shop --yes', 'destroys shop (flyctl apps destroy)'],
  ['userdel -r deploy', 'userdel deletes deploy'],
  // publishing and visibility
  ['npm publish', 'publishes this project to its registry (npm publish)'],
  ['cargo yank --version 1.0.1 shop-core', 'yanks'],
  ['gh repo edit --visibility public', 'makes the repository public (gh repo edit --visibility)'],
  // secrets and env files
  ['> .env', 'empties the secrets file .env (> .env)'],
  ['rm .env.production', 'deletes the secrets file .env.production (rm)'],
  ['cp /dev/null .env.local', 'empties the secrets file .env.local (cp /dev/null .env.local)'],
  // sync with deletion
  ['aws s3 sync ./build s3://site --delete', 'deletes what s3://site has and ./build lacks (aws s3 sync --delete)'],
  ['gsutil -m rsync -r -d ./out gs://site', 'deletes what gs://site has and ./out lacks (gsutil rsync -d)'],
  // switching safety off
  ['sudo ufw disable', 'switches the firewall off (ufw disable)'],
  ['iptables -F', 'deletes every firewall rule (iptables -F)'],
  ['setenforce 0', 'puts SELinux in permissive mode (setenforce 0)'],
  ["echo 'agent ALL=(ALL) NOPASSWD: ALL' | sudo tee /etc/sudoers.d/agent", 'rewrites the sudo policy /etc/sudoers.d/agent'],
  // HTTP DELETE
  ['curl -X DELETE https://api.example.com/v1/users/1', 'sends an HTTP DELETE to https://api.example.com/v1/users/1'],
  // hyphenated and alternate binaries
  ['/usr/lib/git-core/git-reset --hard HEAD~3', 'git reset --hard'],
  ['git-filter-repo --path secrets --invert-paths', 'filter-repo'],
];

const PASS = [
  'aws s3 sync ./build s3://site --delete --dryrun',
  'gsutil -m rsync -n -d -r ./out gs://site',
  'kubectl delete pod web-0 --dry-run=client',
  'pulumi destroy --preview-only',
  'helm uninstall shop -h',
  'gcloud help projects delete',
  'git push -n -f origin main',
  'terraform plan -destroy',
  'npm uninstall lodash',
  'pip uninstall -y requests',
  'docker logs remove-bot',
  'git remote remove upstream',
  'cargo test wipe',
  'echo "DEBUG=1" >> .env',
  'rm .env.example',
  'ufw status verbose',
  'npm publish --dry-run',
];

describe('guard: effects of any CLI (built hook, repo without intents)', () => {
  const repo = realpathSync(tempDir('roz-guard-lexicon-'));

  it('asks for each class, naming the object and where it lives', { timeout: 180_000 }, async () => {
    const { env } = sandbox();
    const p = payloads('lexicon-ask', repo);
    for (const [command, effect, via] of ASK) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, `${command}: ${d.reason}`).toBe('ask');
      expect(d.reason, command).toContain(effect);
      if (via !== undefined) expect(d.reason, command).toContain(`through ${via})`);
    }
  });

  it('passes dry runs, help, package removals and verbs in arguments', { timeout: 180_000 }, async () => {
    const { env } = sandbox();
    const p = payloads('lexicon-pass', repo);
    for (const command of PASS) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, `${command}: ${d.reason}`).toBeUndefined();
    }
  });

  it('denies the same commands under [guard] destructive = "deny"', { timeout: 60_000 }, async () => {
    const { env } = sandbox();
    const p = payloads('lexicon-deny', repo);
    const d = decision(await runHook('PreToolUse', p.pre('Bash', { command: 'koyeb app delete shop' }), { ...env, ROZ_GUARD_DESTRUCTIVE: 'deny' }));
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain('deletes shop (koyeb app delete)');
  });
});

describe('guard: rarely run writers load on demand (built hook, governed repo)', () => {
  it('a compiler or an archive writing outside the scope is asked, inside it passes', { timeout: 120_000 }, async () => {
    const { env, p } = await governedHookProject({ base: 'roz-guard-lexicon', sid: 'lexicon-gov', intent: 'INT-SRC', name: 'Source', scope: 'src/**' });
    for (const command of ['gcc -o docs/tool main.c', 'xxd -r dump.hex docs/blob.bin']) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, `${command}: ${d.reason}`).toBe('ask');
      expect(d.reason, command).toContain('docs/');
    }
    for (const command of ['gcc -o src/tool src/main.c', 'xxd -r src/dump.hex src/blob.bin']) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, `${command}: ${d.reason}`).toBeUndefined();
    }
  });
});
