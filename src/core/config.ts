// roz configuration: the schema, the defaults, and how a config file and ROZ_*
// environment variables combine. Pure: the caller reads the file and the env.
// zod/mini (as in hook-input.ts): every hook process resolves the config.
import * as z from 'zod/mini';
import './zod-messages.js';


export const reviewModes = ['prompt', 'always', 'never'] as const;
export const approvalScopes = ['session', 'prompt', 'tool'] as const;

const nonEmpty = z.string().check(z.minLength(1));
const count = (min: number) => z.int().check(z.gte(min));

export const configSchema = z.strictObject({
  storage: z.strictObject({ path: nonEmpty }),
  review: z.strictObject({
    mode: z.enum(reviewModes),
    /** `Tool` or `Tool:command glob`, e.g. `Bash:gh issue close*`. */
    gates: z.array(nonEmpty),
    approval_scope: z.enum(approvalScopes),
    /** 0 = approvals never expire by age. */
    approval_ttl_seconds: count(0),
  }),
  circuit_breaker: z.strictObject({
    max_blocks: count(1),
    cooldown_seconds: count(0),
  }),
  cleanup: z.strictObject({ retention_days: count(1) }),
  external_models: z.strictObject({ codex: z.string(), gemini: z.string() }),
  templates: z.strictObject({
    /** A template id (`v1`) to pin one, or `random` for weighted A/B choice. */
    active: nonEmpty,
    weights: z.record(z.string(), z.number().check(z.gte(0))),
  }),
});

export type RozConfig = z.infer<typeof configSchema>;

export function defaultConfig(home: string): RozConfig {
  return {
    storage: { path: `${home}/.roz` },
    review: {
      mode: 'prompt',
      gates: ['Bash:gh issue close*', 'Bash:gh pr merge*'],
      approval_scope: 'prompt',
      approval_ttl_seconds: 0,
    },
    circuit_breaker: { max_blocks: 3, cooldown_seconds: 300 },
    cleanup: { retention_days: 7 },
    external_models: { codex: 'codex', gemini: 'gemini' },
    templates: { active: 'random', weights: { v1: 70, v2: 30 } },
  };
}

/** Where each effective value came from: `default`, `file:<path>` or `env:<NAME>`. */
export type ConfigSources = Record<string, string>;

export interface ResolvedConfig {
  config: RozConfig;
  sources: ConfigSources;
  /** Human-readable problems (file, key, reason); the config still resolves. */
  problems: string[];
}

type EnvSpec = { key: string; parse: (v: string) => unknown };
const int = (v: string): unknown => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v);
const list = (v: string): unknown => v.split(',').map((s) => s.trim()).filter(Boolean);
const weights = (v: string): unknown =>
  Object.fromEntries(
    v.split(',').filter(Boolean).map((pair) => {
      const [k, w] = pair.split('=');
      return [String(k).trim(), int(String(w ?? ''))];
    }),
  );

/** Every ROZ_* variable roz honours, and the config key it overrides. */
export const envOverrides: Record<string, EnvSpec> = {
  ROZ_STORAGE_PATH: { key: 'storage.path', parse: (v) => v },
  ROZ_REVIEW_MODE: { key: 'review.mode', parse: (v) => v.trim() },
  ROZ_GATES: { key: 'review.gates', parse: list },
  ROZ_APPROVAL_SCOPE: { key: 'review.approval_scope', parse: (v) => v.trim() },
  ROZ_APPROVAL_TTL_SECONDS: { key: 'review.approval_ttl_seconds', parse: int },
  ROZ_MAX_BLOCKS: { key: 'circuit_breaker.max_blocks', parse: int },
  ROZ_COOLDOWN_SECONDS: { key: 'circuit_breaker.cooldown_seconds', parse: int },
  ROZ_RETENTION_DAYS: { key: 'cleanup.retention_days', parse: int },
  ROZ_CODEX: { key: 'external_models.codex', parse: (v) => v },
  ROZ_GEMINI: { key: 'external_models.gemini', parse: (v) => v },
  ROZ_TEMPLATE: { key: 'templates.active', parse: (v) => v.trim() },
  ROZ_TEMPLATE_WEIGHTS: { key: 'templates.weights', parse: weights },
};

const sections = Object.keys(configSchema.shape) as Array<keyof RozConfig>;

function leafKeys(cfg: RozConfig): string[] {
  return sections.flatMap((s) => Object.keys(cfg[s]).map((k) => `${s}.${k}`));
}

function getAt(obj: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

function setAt(obj: Record<string, unknown>, key: string, value: unknown): void {
  const [section, leaf] = key.split('.') as [string, string];
  const inner = (obj[section] ??= {}) as Record<string, unknown>;
  inner[leaf] = value;
}

function describeIssues(error: z.core.$ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/**
 * Merge defaults <- file <- env. An invalid file is ignored as a whole (the
 * gate then runs on defaults, as documented) and reported key by key; an
 * invalid env value is ignored on its own and reported.
 */
export function resolveConfig(opts: {
  home: string;
  file?: { path: string; data: unknown } | { path: string; error: string } | undefined;
  env: Record<string, string | undefined>;
}): ResolvedConfig {
  const defaults = defaultConfig(opts.home);
  const problems: string[] = [];
  const merged = structuredClone(defaults) as unknown as Record<string, unknown>;
  const sources: ConfigSources = Object.fromEntries(leafKeys(defaults).map((k) => [k, 'default']));

  if (opts.file && 'error' in opts.file) {
    problems.push(`${opts.file.path}: ${opts.file.error}; using defaults`);
  } else if (opts.file) {
    const data = opts.file.data as Record<string, unknown>;
    const candidate = structuredClone(defaults) as unknown as Record<string, unknown>;
    for (const [section, values] of Object.entries(data ?? {})) {
      if (values && typeof values === 'object' && !Array.isArray(values)) {
        candidate[section] = { ...(candidate[section] as object), ...(values as object) };
      } else {
        candidate[section] = values;
      }
    }
    const parsed = configSchema.safeParse(candidate);
    if (parsed.success) {
      for (const key of leafKeys(defaults)) {
        if (getAt(data, key) !== undefined) {
          setAt(merged, key, getAt(parsed.data, key));
          sources[key] = `file:${opts.file.path}`;
        }
      }
    } else {
      for (const issue of describeIssues(parsed.error)) problems.push(`${opts.file.path}: ${issue}; using defaults`);
    }
  }

  for (const [name, spec] of Object.entries(envOverrides)) {
    const raw = opts.env[name];
    if (raw === undefined || raw === '') continue;
    const trial = structuredClone(merged);
    setAt(trial, spec.key, spec.parse(raw));
    const parsed = configSchema.safeParse(trial);
    if (parsed.success) {
      setAt(merged, spec.key, getAt(parsed.data, spec.key));
      sources[spec.key] = `env:${name}`;
    } else {
      const why = describeIssues(parsed.error).join('; ');
      problems.push(`environment ${name}=${JSON.stringify(raw)}: ${why}; ignored`);
    }
  }

  const config = merged as unknown as RozConfig;
  config.storage.path = expandHome(config.storage.path, opts.home);
  return { config, sources, problems };
}

export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return `${home}${path.slice(1)}`;
  return path;
}
