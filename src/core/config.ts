// roz configuration: the schema, the defaults, and how a config file and ROZ_*
// environment variables combine. Pure: the caller reads the file and the env.
// Checked by hand like hook-input.ts (every hook process resolves the config):
// two levels of known keys, each with one rule.

import { projectSettable } from './project-config.js';

export const reviewModes = ['prompt', 'always', 'never'] as const;
export const approvalScopes = ['session', 'prompt', 'tool'] as const;
export const telemetryExports = ['auto', 'on', 'off'] as const;
export const otlpProtocols = ['', 'http/protobuf', 'http/json'] as const;
/** `[enforce] network`: keep the user's network settings, open every host, or exactly these domains. */
export type NetworkSetting = 'user' | 'open' | string[];
export const secondOpinionPolicies = ['off', 'advisory', 'required'] as const;
/** Which client reviews: a Claude agent's `claude` is roz's subagent; for another client's agent roz starts the reviewer itself. */
export const reviewerClients = ['claude', 'codex'] as const;
export const guardModes = ['ask', 'deny', 'off'] as const;

export interface RozConfig {
  storage: { path: string };
  review: {
    mode: (typeof reviewModes)[number];
    /** `Tool` or `Tool:command glob`, e.g. `Bash:gh issue close*`. */
    gates: string[];
    approval_scope: (typeof approvalScopes)[number];
    /** 0 = approvals never expire by age. */
    approval_ttl_seconds: number;
    /** Whether the reviewer seeks a second model's opinion, and whether COMPLETE needs one. */
    second_opinion: (typeof secondOpinionPolicies)[number];
    /** How long a reviewer run may stay open with no word from the client that it ended; 0 = no bound. */
    reviewer_timeout_seconds: number;
    /**
     * The reviewer's client (the user's choice only: a project file cannot set it). `claude`: the roz:roz
     * subagent for a Claude agent, a `claude -p` roz starts for a Codex or Gemini agent; `codex`: a
     * read-only `codex exec` roz starts, for any agent (core/review/launched-reviewer.ts).
     */
    reviewer_client: (typeof reviewerClients)[number];
  };
  circuit_breaker: { max_blocks: number; cooldown_seconds: number };
  cleanup: { retention_days: number };
  /** Second-opinion commands ("" disables one) and the model each is asked for; tried in this order. */
  external_models: { codex: string; codex_model: string; gemini: string; gemini_model: string; claude: string; claude_model: string };
  /** The destructive-command guard, in every project (governed or not). */
  guard: { destructive: (typeof guardModes)[number] };
  governance: {
    /** Writes under /tmp, $TMPDIR and the client's session temp are not scope violations. */
    allow_temp_writes: boolean;
  };
  templates: {
    /** A template id (`v1`) to pin one, or `random` for weighted A/B choice. */
    active: string;
    weights: Record<string, number>;
  };
  /**
   * OpenTelemetry export (docs/telemetry.md). `auto`: on when
   * OTEL_EXPORTER_OTLP_ENDPOINT (or the logs/metrics one) is set. Empty
   * strings defer to the standard OTEL_* variables.
   */
  telemetry: {
    export: (typeof telemetryExports)[number];
    endpoint: string;
    protocol: (typeof otlpProtocols)[number];
    /** `key=value,key2=value2`, like OTEL_EXPORTER_OTLP_HEADERS. */
    headers: string;
    /** `key=value,...`, like OTEL_RESOURCE_ATTRIBUTES. */
    resource_attributes: string;
  };
  /** What `roz run`/`roz exec` put in the client's sandbox settings (see core/enforce/settings.ts). */
  enforce: {
    network: NetworkSetting;
    /**
     * Absolute folders outside the project and $TMPDIR the Write/Edit tools may
     * write (they are refused everywhere else). From the user's own config
     * only: a project file cannot set it (project-config.ts).
     */
    write_paths: string[];
  };
  /**
   * Agents' worktrees (docs/fleet.md): '' = beside the repository
   * (`<parent>/<repo>.roz/<name>`). Only from the user's file: a project (agent-writable)
   * could point it at the main checkout or another agent's worktree.
   */
  fleet: { worktree_dir: string };
  /**
   * `command`: a program the supervisor runs for each new approval request
   * (argv, no shell; [] = none), with ROZ_AGENT, ROZ_TOOL, ROZ_SUMMARY,
   * ROZ_REQUEST_ID in its environment (supervisor/notify-command.ts). Only from
   * the user's file: a program named by the project (agent-writable) would run
   * in the trusted supervisor.
   */
  notify: { command: string[]; timeout_seconds: number };
}

/** A rule returns why a value is wrong, or null. */
type Rule = (v: unknown) => string | null;
const got = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'a table' : JSON.stringify(v));
const string: Rule = (v) => (typeof v === 'string' ? null : `expected a string, got ${got(v)}`);
const nonEmpty: Rule = (v) => string(v) ?? (v === '' ? 'expected a non-empty string' : null);
const oneOf =
  (options: readonly string[]): Rule =>
  (v) =>
    typeof v === 'string' && options.includes(v) ? null : `expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}, got ${got(v)}`;
const intAtLeast =
  (min: number): Rule =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min ? null : `expected a whole number >= ${min}, got ${got(v)}`;
const listOf =
  (item: Rule): Rule =>
  (v) => {
    if (!Array.isArray(v)) return `expected a list, got ${got(v)}`;
    const bad = v.map((x, i) => [i, item(x)] as const).find(([, why]) => why);
    return bad ? `item ${bad[0]}: ${bad[1]}` : null;
  };
const boolean: Rule = (v) => (typeof v === 'boolean' ? null : `expected true or false, got ${got(v)}`);
const weightTable: Rule = (v) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return `expected a table of weights, got ${got(v)}`;
  const bad = Object.entries(v).find(([, w]) => typeof w !== 'number' || !Number.isFinite(w) || w < 0);
  return bad ? `${bad[0]}: expected a number >= 0, got ${got(bad[1])}` : null;
};

const networkSetting: Rule = (v) =>
  v === 'user' || v === 'open' ? null : Array.isArray(v) ? listOf(nonEmpty)(v) : `expected "user", "open" or a list of domains, got ${got(v)}`;

const rules: Record<keyof RozConfig, Record<string, Rule>> = {
  storage: { path: nonEmpty },
  review: {
    mode: oneOf(reviewModes),
    gates: listOf(nonEmpty),
    approval_scope: oneOf(approvalScopes),
    approval_ttl_seconds: intAtLeast(0),
    second_opinion: oneOf(secondOpinionPolicies),
    reviewer_timeout_seconds: intAtLeast(0),
    reviewer_client: oneOf(reviewerClients),
  },
  circuit_breaker: { max_blocks: intAtLeast(1), cooldown_seconds: intAtLeast(0) },
  cleanup: { retention_days: intAtLeast(1) },
  external_models: { codex: string, codex_model: string, gemini: string, gemini_model: string, claude: string, claude_model: string },
  guard: { destructive: oneOf(guardModes) },
  governance: { allow_temp_writes: boolean },
  templates: { active: nonEmpty, weights: weightTable },
  telemetry: { export: oneOf(telemetryExports), endpoint: string, protocol: oneOf(otlpProtocols), headers: string, resource_attributes: string },
  enforce: { network: networkSetting, write_paths: listOf(nonEmpty) },
  fleet: {
    worktree_dir: (v) =>
      string(v) ?? (v === '' || (v as string).startsWith('/') || (v as string).startsWith('~/') ? null : 'expected an absolute path (or ~/...)'),
  },
  notify: { command: listOf(nonEmpty), timeout_seconds: intAtLeast(1) },
};

/** Every problem of a complete candidate config, as `section.key: reason`; unknown keys included. */
export function configProblems(candidate: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [section, value] of Object.entries(candidate)) {
    const keys = rules[section as keyof RozConfig];
    if (!keys) {
      out.push(`${section}: unknown section (expected one of ${Object.keys(rules).join(', ')})`);
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      out.push(`${section}: expected a table, got ${got(value)}`);
      continue;
    }
    for (const [key, v] of Object.entries(value)) {
      const rule = keys[key];
      const why = rule ? rule(v) : `unknown key (expected one of ${Object.keys(keys).join(', ')})`;
      if (why) out.push(`${section}.${key}: ${why}`);
    }
    for (const key of Object.keys(keys)) if (!(key in value)) out.push(`${section}.${key}: required, missing`);
  }
  return out;
}

export function defaultConfig(home: string): RozConfig {
  return {
    storage: { path: `${home}/.roz` },
    review: {
      mode: 'prompt',
      gates: ['Bash:gh issue close*', 'Bash:gh pr merge*'],
      approval_scope: 'prompt',
      approval_ttl_seconds: 0,
      second_opinion: 'advisory',
      reviewer_timeout_seconds: 1800,
      reviewer_client: 'claude',
    },
    circuit_breaker: { max_blocks: 3, cooldown_seconds: 300 },
    cleanup: { retention_days: 7 },
    // The seed's order and models: codex, then gemini, then a Claude model.
    external_models: { codex: 'codex', codex_model: 'gpt-5.2', gemini: 'gemini', gemini_model: 'gemini-3-pro-preview', claude: 'claude', claude_model: 'opus' },
    guard: { destructive: 'ask' },
    governance: { allow_temp_writes: true },
    templates: { active: 'random', weights: { v1: 70, v2: 30 } },
    telemetry: { export: 'auto', endpoint: '', protocol: '', headers: '', resource_attributes: '' },
    enforce: { network: 'user', write_paths: [] },
    fleet: { worktree_dir: '' },
    notify: { command: [], timeout_seconds: 10 },
  };
}

/** Where each effective value came from: `default`, `file:<path>`, `project:<path>` or `env:<NAME>`. */
export type ConfigSources = Record<string, string>;

export interface ResolvedConfig {
  config: RozConfig;
  sources: ConfigSources;
  /** Human-readable problems (file, key, reason); the config still resolves. */
  problems: string[];
}

type EnvSpec = { key: string; parse: (v: string) => unknown };
const int = (v: string): unknown => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v);
const bool = (v: string): unknown => (/^(?:1|true|yes|on)$/i.test(v.trim()) ? true : /^(?:0|false|no|off)$/i.test(v.trim()) ? false : v);
const list = (v: string): unknown =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const weights = (v: string): unknown =>
  Object.fromEntries(
    v
      .split(',')
      .filter(Boolean)
      .map((pair) => {
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
  ROZ_SECOND_OPINION: { key: 'review.second_opinion', parse: (v) => v.trim() },
  ROZ_REVIEWER_TIMEOUT_SECONDS: { key: 'review.reviewer_timeout_seconds', parse: int },
  ROZ_REVIEWER_CLIENT: { key: 'review.reviewer_client', parse: (v) => v.trim() },
  ROZ_MAX_BLOCKS: { key: 'circuit_breaker.max_blocks', parse: int },
  ROZ_COOLDOWN_SECONDS: { key: 'circuit_breaker.cooldown_seconds', parse: int },
  ROZ_RETENTION_DAYS: { key: 'cleanup.retention_days', parse: int },
  ROZ_CODEX: { key: 'external_models.codex', parse: (v) => v },
  ROZ_GEMINI: { key: 'external_models.gemini', parse: (v) => v },
  ROZ_CLAUDE: { key: 'external_models.claude', parse: (v) => v },
  ROZ_GUARD_DESTRUCTIVE: { key: 'guard.destructive', parse: (v) => v.trim() },
  ROZ_ALLOW_TEMP_WRITES: { key: 'governance.allow_temp_writes', parse: bool },
  ROZ_TEMPLATE: { key: 'templates.active', parse: (v) => v.trim() },
  ROZ_TEMPLATE_WEIGHTS: { key: 'templates.weights', parse: weights },
  // Claude Code removes every OTEL_* variable from the environment of hooks,
  // so a hook (and the flush it starts) reads these instead (docs/telemetry.md).
  ROZ_TELEMETRY: { key: 'telemetry.export', parse: (v) => v.trim() },
  ROZ_OTLP_ENDPOINT: { key: 'telemetry.endpoint', parse: (v) => v.trim() },
  ROZ_OTLP_PROTOCOL: { key: 'telemetry.protocol', parse: (v) => v.trim() },
  ROZ_OTLP_HEADERS: { key: 'telemetry.headers', parse: (v) => v },
  ROZ_OTLP_RESOURCE_ATTRIBUTES: { key: 'telemetry.resource_attributes', parse: (v) => v },
  ROZ_ENFORCE_NETWORK: { key: 'enforce.network', parse: (v) => (v.trim() === 'user' || v.trim() === 'open' ? v.trim() : list(v)) },
};

const sections = Object.keys(rules) as Array<keyof RozConfig>;

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

/**
 * Merge defaults <- file <- env. An invalid file is ignored as a whole (the
 * gate then runs on defaults, as documented) and reported key by key; an
 * invalid env value is ignored on its own and reported.
 */
type ConfigFile = { path: string; data: unknown } | { path: string; error: string };

export function resolveConfig(opts: {
  home: string;
  file?: ConfigFile | undefined;
  /** The project's .roz/config.toml: between the user's file and the environment, and only tightening (project-config.ts). */
  project?: ConfigFile | undefined;
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
    const issues = configProblems(candidate);
    if (issues.length === 0) {
      for (const key of leafKeys(defaults)) {
        if (getAt(data, key) !== undefined) {
          setAt(merged, key, structuredClone(getAt(candidate, key)));
          sources[key] = `file:${opts.file.path}`;
        }
      }
    } else {
      for (const issue of issues) problems.push(`${opts.file.path}: ${issue}; using defaults`);
    }
  }

  if (opts.project) applyProjectFile(merged, sources, problems, opts.project);

  for (const [name, spec] of Object.entries(envOverrides)) {
    const raw = opts.env[name];
    if (raw === undefined || raw === '') continue;
    // Everything else in `merged` is valid already: only the section the variable changes is checked again.
    const [section, leaf] = spec.key.split('.') as [string, string];
    const value = spec.parse(raw);
    const issues = configProblems({ [section]: { ...(merged[section] as object), [leaf]: value } });
    if (issues.length === 0) {
      setAt(merged, spec.key, value);
      sources[spec.key] = `env:${name}`;
    } else {
      const why = issues.join('; ');
      problems.push(`environment ${name}=${JSON.stringify(raw)}: ${why}; ignored`);
    }
  }

  const config = merged as unknown as RozConfig;
  config.storage.path = expandHome(config.storage.path, opts.home);
  if (config.fleet.worktree_dir) config.fleet.worktree_dir = expandHome(config.fleet.worktree_dir, opts.home);
  if (config.notify.command[0]) config.notify.command = [expandHome(config.notify.command[0], opts.home), ...config.notify.command.slice(1)];
  return { config, sources, problems };
}

/**
 * A project file, key by key: each value must be valid and allowed to a
 * project (projectSettable) and may only tighten what the user's layers set;
 * anything else is reported and ignored, so a project cannot switch roz off
 * silently.
 */
function applyProjectFile(merged: Record<string, unknown>, sources: ConfigSources, problems: string[], file: ConfigFile): void {
  if ('error' in file) {
    problems.push(`${file.path}: ${file.error}; ignored`);
    return;
  }
  for (const [section, values] of Object.entries((file.data ?? {}) as Record<string, unknown>)) {
    if (!values || typeof values !== 'object' || Array.isArray(values)) {
      problems.push(`${file.path}: ${section}: expected a table, got ${got(values)}; ignored`);
      continue;
    }
    for (const [leaf, value] of Object.entries(values)) {
      const key = `${section}.${leaf}`;
      const trial = structuredClone(merged);
      setAt(trial, key, value);
      const invalid = configProblems(trial);
      if (invalid.length) {
        problems.push(`${file.path}: ${invalid.join('; ')}; ignored`);
        continue;
      }
      const rule = projectSettable[key];
      if (!rule) {
        problems.push(`${file.path}: ${key}: not settable from a project file (only from the user's config file or the environment); ignored`);
        continue;
      }
      const out = rule(getAt(merged, key), value);
      if ('refused' in out) {
        problems.push(`${file.path}: ${key}: ${out.refused}; a project file may only tighten roz; ignored`);
        continue;
      }
      setAt(merged, key, structuredClone(out.value));
      sources[key] = `project:${file.path}`;
    }
  }
}

export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return `${home}${path.slice(1)}`;
  return path;
}
