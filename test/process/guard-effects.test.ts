// Issue 30 through the built hook: a command run behind a runner (docker/podman exec and run,
// docker compose exec, kubectl exec --, npx, pnpm dlx, yarn dlx, uvx) is asked exactly as it is
// bare, with the runner named; framework and ORM resets are asked, their ordinary verbs pass;
// `plan -destroy` passes; and in a governed repo `git rm -r --cached .` is inside the scope `**`.
import { governedHookProject } from './guard-project.js';
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloads, runHook, sandbox, type ProcResult } from '../helpers/hooks.js';
import { tempDir } from '../helpers/temp-dir.js';

const decision = (r: ProcResult): { decision: string | undefined; reason: string } => ({
  decision: r.json?.hookSpecificOutput?.permissionDecision,
  reason: r.json?.hookSpecificOutput?.permissionDecisionReason ?? '',
});

const RUNNERS: Array<[string, string]> = [
  ["docker exec -it db psql -U postgres -c 'DROP DATABASE app'", 'docker exec'],
  ["docker compose exec -T db psql -c 'TRUNCATE users'", 'docker compose exec'],
  ['podman exec cache redis-cli FLUSHALL', 'podman exec'],
  ["kubectl exec -n prod pg-0 -- psql -c 'DROP TABLE users'", 'kubectl exec'],
  ['docker run --rm -v /srv/data:/d alpine rm -rf /d', 'docker run'],
  ['npx -y kubectl@1.30 delete namespace prod', 'npx'],
  ['pnpm dlx prisma migrate reset --force', 'pnpm dlx'],
  ['yarn dlx terraform destroy', 'yarn dlx'],
  ['uvx --from awscli aws s3 rb s3://prod-bucket --force', 'uvx'],
];
const RESETS = [
  'npx prisma migrate reset --force',
  'prisma db push --accept-data-loss',
  'php artisan migrate:fresh --seed',
  'python3 manage.py flush --noinput',
  'bin/rails db:drop',
  'npx knex migrate:rollback --all',
  'npx typeorm schema:drop',
  'alembic downgrade base',
  'flyway clean',
  'liquibase drop-all',
];
const PASS = [
  'docker exec db psql -c "SELECT 1"',
  'docker compose run --rm web npm test',
  'kubectl exec -it pod -- ls /data',
  'npx prisma generate',
  'php artisan migrate',
  'python3 manage.py migrate',
  'rails db:migrate',
  'prisma migrate reset --help',
  'terraform plan -destroy',
];

describe('guard: effects through runners and frameworks (built hook, repo without intents)', () => {
  const repo = realpathSync(tempDir('roz-guard-effects-'));

  it('asks for a destructive command behind any runner, naming the runner', { timeout: 120_000 }, async () => {
    const { env } = sandbox();
    const p = payloads('effects-runners', repo);
    for (const [command, via] of RUNNERS) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, command).toBe('ask');
      expect(d.reason, command).toContain(`through ${via}`);
    }
  });

  it('asks for framework and ORM resets; their ordinary verbs, help and plans pass', { timeout: 120_000 }, async () => {
    const { env } = sandbox();
    const p = payloads('effects-resets', repo);
    for (const command of RESETS) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, command).toBe('ask');
      expect(d.reason, command).toMatch(/drops, resets or rolls back the whole database/);
    }
    for (const command of PASS) expect(decision(await runHook('PreToolUse', p.pre('Bash', { command }), env)).decision, command).toBeUndefined();
  });
});

describe('guard: the project root is inside the scope ** (built hook, governed repo)', () => {
  it('git rm -r --cached . && git add . is not asked; git rm -r . is judged as a write of the whole tree', { timeout: 120_000 }, async () => {
    const { env, p } = await governedHookProject({ base: 'roz-guard-effects', sid: 'effects-gov', intent: 'INT-ALL', name: 'Everything', scope: '**' });
    for (const command of ['git rm -r --cached . && git add .', 'git rm -r .']) {
      const d = decision(await runHook('PreToolUse', p.pre('Bash', { command }), env));
      expect(d.decision, `${command}: ${d.reason}`).toBeUndefined();
    }
  });
});
