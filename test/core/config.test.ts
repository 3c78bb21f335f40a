import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';

describe('config resolution', () => {
  it('defaults, then file, then env, with the source of each value', () => {
    const r = resolveConfig({
      home: '/h',
      file: { path: '/h/.roz/config.toml', data: { circuit_breaker: { max_blocks: 5 }, templates: { active: 'v2' } } },
      env: { ROZ_MAX_BLOCKS: '7', ROZ_STORAGE_PATH: '~/store' },
    });
    expect(r.problems).toEqual([]);
    expect(r.config.circuit_breaker).toEqual({ max_blocks: 7, cooldown_seconds: 300 });
    expect(r.config.templates.active).toBe('v2');
    expect(r.config.storage.path).toBe('/h/store');
    expect(r.sources['circuit_breaker.max_blocks']).toBe('env:ROZ_MAX_BLOCKS');
    expect(r.sources['templates.active']).toBe('file:/h/.roz/config.toml');
    expect(r.sources['review.mode']).toBe('default');
  });

  it('an invalid file is reported by file, key and reason, and defaults apply', () => {
    const r = resolveConfig({
      home: '/h',
      file: { path: '/h/.roz/config.toml', data: { review: { mode: 'sometimes' }, circuit_breaker: { max_blocks: 9 } } },
      env: {},
    });
    expect(r.problems.join('\n')).toMatch(/\/h\/\.roz\/config\.toml: review\.mode: .*using defaults/);
    expect(r.config.review.mode).toBe('prompt');
    expect(r.config.circuit_breaker.max_blocks).toBe(3);
  });

  it('unknown keys and bad env values are reported, not silently used', () => {
    const r = resolveConfig({ home: '/h', file: { path: 'c.toml', data: { review: { mood: 'x' } } }, env: { ROZ_MAX_BLOCKS: 'lots' } });
    expect(r.problems.some((p) => p.includes('mood'))).toBe(true);
    expect(r.problems.some((p) => p.startsWith('environment ROZ_MAX_BLOCKS'))).toBe(true);
    expect(r.config.circuit_breaker.max_blocks).toBe(3);
  });

  it('template weights and gates come from the environment too', () => {
    const r = resolveConfig({ home: '/h', env: { ROZ_TEMPLATE_WEIGHTS: 'v1=10,v2=90', ROZ_GATES: 'Bash:git push*, mcp__x__close' } });
    expect(r.config.templates.weights).toEqual({ v1: 10, v2: 90 });
    expect(r.config.review.gates).toEqual(['Bash:git push*', 'mcp__x__close']);
  });
});

describe('config validation', () => {
  it('says what is wrong with each key, and ignores the whole file', () => {
    const r = resolveConfig({
      home: '/h',
      file: {
        path: 'c.toml',
        data: {
          review: { gates: ['ok', ''], approval_ttl_seconds: 1.5 },
          circuit_breaker: { max_blocks: 0 },
          templates: { weights: { v1: -1 } },
          extras: { a: 1 },
          cleanup: 'weekly',
        },
      },
      env: {},
    });
    expect(r.problems).toEqual([
      'c.toml: review.gates: item 1: expected a non-empty string; using defaults',
      'c.toml: review.approval_ttl_seconds: expected a whole number >= 0, got 1.5; using defaults',
      'c.toml: circuit_breaker.max_blocks: expected a whole number >= 1, got 0; using defaults',
      'c.toml: cleanup: expected a table, got "weekly"; using defaults',
      'c.toml: templates.weights: v1: expected a number >= 0, got -1; using defaults',
      'c.toml: extras: unknown section (expected one of storage, review, circuit_breaker, cleanup, external_models, guard, governance, templates, telemetry, enforce, fleet, notify); using defaults',
    ]);
    expect(r.config.review.gates).toEqual(['Bash:gh issue close*', 'Bash:gh pr merge*']);
  });

  it('an env value outside the allowed set is named with the options', () => {
    const r = resolveConfig({ home: '/h', env: { ROZ_REVIEW_MODE: 'sometimes', ROZ_APPROVAL_SCOPE: 'tool' } });
    expect(r.problems).toEqual(['environment ROZ_REVIEW_MODE="sometimes": review.mode: expected one of "prompt", "always", "never", got "sometimes"; ignored']);
    expect(r.config.review.approval_scope).toBe('tool');
    expect(r.sources['review.approval_scope']).toBe('env:ROZ_APPROVAL_SCOPE');
  });
});

describe('project config (.roz/config.toml): between the user file and the environment, tighten-only', () => {
  const project = (data: unknown) => ({ path: '/p/.roz/config.toml', data });

  it('tightens what the user set, with the project as the source', () => {
    const r = resolveConfig({
      home: '/h',
      file: { path: '/h/.roz/config.toml', data: { review: { approval_ttl_seconds: 600 } } },
      project: project({
        review: { mode: 'always', gates: ['Bash:git push*'], approval_scope: 'tool', approval_ttl_seconds: 60, second_opinion: 'required' },
        circuit_breaker: { max_blocks: 5, cooldown_seconds: 30 },
        guard: { destructive: 'deny' },
        governance: { allow_temp_writes: false },
      }),
      env: {},
    });
    expect(r.problems).toEqual([]);
    expect(r.config.review).toMatchObject({
      mode: 'always',
      gates: ['Bash:gh issue close*', 'Bash:gh pr merge*', 'Bash:git push*'],
      approval_scope: 'tool',
      approval_ttl_seconds: 60,
    });
    expect(r.config.circuit_breaker).toEqual({ max_blocks: 5, cooldown_seconds: 30 });
    expect(r.config.review.second_opinion).toBe('required');
    expect(r.config.guard.destructive).toBe('deny');
    expect(r.config.governance.allow_temp_writes).toBe(false);
    expect(r.sources['review.mode']).toBe('project:/p/.roz/config.toml');
  });

  it('cannot loosen or switch roz off: each such key is reported and the user value stays', () => {
    const r = resolveConfig({
      home: '/h',
      file: { path: '/h/.roz/config.toml', data: { review: { mode: 'always', approval_ttl_seconds: 60 } } },
      project: project({
        review: { mode: 'never', gates: [], approval_scope: 'session', approval_ttl_seconds: 0 },
        circuit_breaker: { max_blocks: 1, cooldown_seconds: 99999 },
        storage: { path: '/tmp/elsewhere' },
        external_models: { codex: 'sh' },
        cleanup: { retention_days: 1 },
        templates: { active: 'v2' },
        guard: { destructive: 'off' },
        telemetry: { export: 'on', endpoint: 'http://127.0.0.1:9/' },
        enforce: { network: 'open' },
      }),
      env: {},
    });
    expect(r.config.review).toMatchObject({
      mode: 'always',
      gates: ['Bash:gh issue close*', 'Bash:gh pr merge*'],
      approval_scope: 'prompt',
      approval_ttl_seconds: 60,
    });
    expect(r.config.circuit_breaker).toEqual({ max_blocks: 3, cooldown_seconds: 300 });
    expect(r.config.storage.path).toBe('/h/.roz');
    expect(r.config.external_models.codex).toBe('codex');
    expect(r.config.cleanup.retention_days).toBe(7);
    expect(r.config.templates.active).toBe('random');
    expect(r.config.guard.destructive).toBe('ask');
    expect(r.config.telemetry.export).toBe('auto');
    expect(r.problems.join('\n')).toMatch(/telemetry\.endpoint: not settable from a project file/);
    expect(r.config.enforce.network).toBe('user');
    const said = r.problems.join('\n');
    for (const key of [
      'review.mode',
      'review.approval_scope',
      'review.approval_ttl_seconds',
      'circuit_breaker.max_blocks',
      'circuit_breaker.cooldown_seconds',
      'storage.path',
      'external_models.codex',
      'cleanup.retention_days',
      'templates.active',
      'guard.destructive',
      'telemetry.export',
      'telemetry.endpoint',
      'enforce.network',
    ]) {
      expect(said).toContain(`/p/.roz/config.toml: ${key}`);
    }
  });

  it('a project may make the guard and second opinions stricter, never looser', () => {
    const strict = resolveConfig({
      home: '/h',
      project: project({ guard: { destructive: 'deny' }, governance: { allow_temp_writes: false }, review: { second_opinion: 'required' } }),
      env: {},
    });
    expect(strict.problems).toEqual([]);
    expect(strict.config.guard.destructive).toBe('deny');
    expect(strict.config.governance.allow_temp_writes).toBe(false);
    expect(strict.config.review.second_opinion).toBe('required');
    const loose = resolveConfig({
      home: '/h',
      file: {
        path: '/h/.roz/config.toml',
        data: { guard: { destructive: 'deny' }, governance: { allow_temp_writes: false }, review: { second_opinion: 'required' } },
      },
      project: project({ guard: { destructive: 'off' }, governance: { allow_temp_writes: true }, review: { second_opinion: 'off' } }),
      env: {},
    });
    expect(loose.config.guard.destructive).toBe('deny');
    expect(loose.config.governance.allow_temp_writes).toBe(false);
    expect(loose.config.review.second_opinion).toBe('required');
    for (const key of ['guard.destructive', 'governance.allow_temp_writes', 'review.second_opinion'])
      expect(loose.problems.join('\n')).toContain(`/p/.roz/config.toml: ${key}`);
  });

  it('the environment still overrides the project, and an invalid project value is ignored on its own', () => {
    const r = resolveConfig({
      home: '/h',
      project: project({ review: { mode: 'sometimes' }, circuit_breaker: { max_blocks: 4 } }),
      env: { ROZ_MAX_BLOCKS: '6' },
    });
    expect(r.problems.join('\n')).toMatch(/review\.mode: expected one of/);
    expect(r.config.circuit_breaker.max_blocks).toBe(6);
    expect(r.sources['circuit_breaker.max_blocks']).toBe('env:ROZ_MAX_BLOCKS');
  });

  it("the reviewer's client is the user's choice (file or ROZ_REVIEWER_CLIENT), never a project's", () => {
    const user = { path: '/h/.roz/config.toml', data: { review: { reviewer_client: 'codex' } } };
    const byProject = resolveConfig({ home: '/h', env: {}, project: project({ review: { reviewer_client: 'codex' } }) });
    expect(byProject.config.review.reviewer_client).toBe('claude');
    expect(byProject.problems.join('\n')).toMatch(/review\.reviewer_client: not settable from a project file/);
    const overUser = resolveConfig({ home: '/h', env: {}, file: user, project: project({ review: { reviewer_client: 'claude' } }) });
    expect(overUser.config.review.reviewer_client).toBe('codex');
    expect(resolveConfig({ home: '/h', env: { ROZ_REVIEWER_CLIENT: 'codex' } }).config.review.reviewer_client).toBe('codex');
    expect(resolveConfig({ home: '/h', env: { ROZ_REVIEWER_CLIENT: 'gemini' } }).problems.join('\n')).toMatch(/reviewer_client.*expected one of/);
  });
});

describe('guard and governance keys', () => {
  it('default to asking for destructive commands and allowing temp writes; env overrides both', () => {
    const d = resolveConfig({ home: '/h', env: {} });
    expect(d.config.guard.destructive).toBe('ask');
    expect(d.config.governance.allow_temp_writes).toBe(true);
    const e = resolveConfig({ home: '/h', env: { ROZ_GUARD_DESTRUCTIVE: 'deny', ROZ_ALLOW_TEMP_WRITES: 'false' } });
    expect(e.config.guard.destructive).toBe('deny');
    expect(e.config.governance.allow_temp_writes).toBe(false);
    expect(e.sources['guard.destructive']).toBe('env:ROZ_GUARD_DESTRUCTIVE');
    const bad = resolveConfig({ home: '/h', env: { ROZ_GUARD_DESTRUCTIVE: 'maybe' } });
    expect(bad.config.guard.destructive).toBe('ask');
    expect(bad.problems.join('\n')).toMatch(/ROZ_GUARD_DESTRUCTIVE.*expected one of "ask", "deny", "off"/);
  });
});
