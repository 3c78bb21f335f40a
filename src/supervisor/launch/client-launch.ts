// How roz starts a client other than Claude Code (core/clients.ts), one
// launcher per client: Codex's command line with roz's hooks and sandbox
// (core/codex-launch.ts), Gemini's system settings file with roz's hooks; and
// the environment their hook processes read — which client they serve
// (ROZ_CLIENT), roz's plugin and the project, and whether the client's own
// sandbox holds what roz asked of it (ROZ_CLIENT_SANDBOX, the session's
// enforcement mode). Reads the files the plan depends on; loaded only when
// such a client is launched.
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ClientDescriptor, ClientId } from '../../core/clients.js';
import { ASKING_HOOK_TIMEOUT_S, CLIENT_COMMANDS } from '../../core/client-commands.js';
import { nameHash } from '../../core/name-hash.js';
import { CodexArgsError, codexLaunch } from '../../core/codex-launch.js';
import type { RozConfig } from '../../core/config.js';
import { protectedPaths } from '../../engine/enforce-paths.js';
import { resolveReal } from '../../store/realpath.js';
import { stopHookTimeoutSeconds } from '../../core/review/launched-reviewer.js';
import { ensureControlDir } from '../../store/control-record.js';
import { RunError } from './agent-run.js';
import { planWorktreeSandbox } from '../../core/enforce/worktree-sandbox.js';
import type { AgentPlace } from '../../store/agent-place.js';
import { prepareStaging, type StagingPlace } from '../../store/staging-place.js';
import { SECRET_ENV } from './run-settings.js';

export interface ClientLaunch {
  args: string[];
  env: Record<string, string>;
  notes: string[];
  /** The staging store the agent's new git objects go to (a Codex agent's linked worktree); the launch puts the git shim on PATH. */
  objects: StagingPlace | null;
}

/** `'…'` for /bin/sh. */
const shQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Files among these whose text sets `sandbox_mode` at the top of a line. */
function settingSandboxMode(files: string[]): string[] {
  return files.filter((f) => {
    try {
      return /^\s*sandbox_mode\s*=/m.test(readFileSync(f, 'utf8'));
    } catch {
      return false;
    }
  });
}

type LaunchRequestLike = { args: string[]; cwd: string; env: Record<string, string> };
type Launcher = (client: ClientDescriptor, req: LaunchRequestLike, pluginDir: string, config: RozConfig, place?: AgentPlace) => ClientLaunch;

/** The hook command: the node roz runs on and roz's own launcher, both by absolute path (launch-node.ts says why). */
function hookCommandFor(pluginDir: string): (name: string) => string {
  const roz = join(pluginDir, 'bin', 'roz');
  return (name) => `${shQuote(process.execPath)} --verify-snapshot-checksum ${shQuote(roz)} hook ${name}`;
}

/** Another client has no roz:roz subagent: roz's Stop hook starts the reviewer itself (core/review/launched-reviewer.ts) and waits for it. */
function reviewNote(client: ClientDescriptor, config: RozConfig): string[] {
  return config.review.mode === 'never'
    ? []
    : [
        `${client.id}: review gate: once review is on, ${client.label}'s stop starts roz's reviewer (${config.review.reviewer_client}, read-only) and waits up to ${stopHookTimeoutSeconds(config)} s for its decision`,
      ];
}

/** `place`: where the launch runs, as prepareLaunch found it (a linked worktree's facts, readied for its sandbox). */
export function launchOtherClient(client: ClientDescriptor, req: LaunchRequestLike, pluginDir: string, config: RozConfig, place?: AgentPlace): ClientLaunch {
  const launch = LAUNCHERS[client.id];
  if (!launch) throw new RunError(`roz launches ${client.label} through its plugin, not here`, 2);
  return launch(client, req, pluginDir, config, place);
}

const launchCodex: Launcher = (client, req, pluginDir, config, place) => {
  const env = req.env;
  const project = resolveReal(req.cwd);
  const paths = protectedPaths(env, req.cwd, null, pluginDir, config);
  const readOnly = [paths.store, paths.codeCache, ...paths.configFiles, paths.orchestration, paths.intentsOrchestration, paths.pluginDir].filter(
    (p): p is string => typeof p === 'string' && p.length > 0,
  );
  const codexHome = env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
  const hookCommand = hookCommandFor(pluginDir);
  // The control records (each supervisor's secret): unreadable to the agent, as for Claude Code. It must
  // exist before Codex's sandbox hides it.
  const controlDir = ensureControlDir(paths.store);
  // An agent's linked worktree: it commits on its own branch as a Claude agent does, with the same
  // plan from the same facts (its new objects into the staging store, the shared objects read-only).
  const linked = place?.linked ?? null;
  const objects = linked ? prepareStaging(req.cwd) : null;
  const worktree = linked ? planWorktreeSandbox(linked, objects !== null) : null;
  let plan: ReturnType<typeof codexLaunch>;
  try {
    plan = codexLaunch({
      args: req.args,
      hookCommand,
      hooks: CLIENT_COMMANDS[client.id].hooks,
      hookTimeouts: { Stop: stopHookTimeoutSeconds(config) },
      project,
      readOnly,
      denyRead: [controlDir],
      secretEnv: SECRET_ENV,
      network: config.enforce.network,
      legacySandboxIn: settingSandboxMode([join(codexHome, 'config.toml'), join(project, '.codex', 'config.toml')]),
      worktree,
      gitShim: objects !== null,
    });
  } catch (err) {
    if (err instanceof CodexArgsError) throw new RunError(err.message, 2);
    throw err;
  }
  const notes = [...plan.notes, ...reviewNote(client, config)];
  return {
    args: plan.args,
    env: {
      ROZ_CLIENT: client.id,
      CLAUDE_PLUGIN_ROOT: pluginDir,
      CLAUDE_PROJECT_DIR: req.cwd,
      ROZ_CLIENT_SANDBOX: plan.enforced ? 'enforced' : `advisory: ${plan.advisory.join('; ')}`,
    },
    notes,
    objects,
  };
};

/** The first of `dir` and its parents that group or others can write, or null. */
/** The first folder from `dir` up to / that group or others can write (Gemini then skips a settings file below it), or null. */
export function writableByOthers(dir: string): string | null {
  for (let d = realpathSync(dir); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o022) !== 0) return d;
    if (dirname(d) === d) return null;
  }
}

/** Why a Gemini run is advisory: Gemini's own sandbox needs a container runtime and its image (docs/clients.md). */
const GEMINI_ADVISORY =
  "Gemini CLI's sandbox needs a container runtime and its image, so nothing confines its shell and file tools: roz's hooks judge every tool call, and the agent could write roz's store and the project's .gemini/";

/** A Gemini hook's own timeout (milliseconds) where roz may wait longer than Gemini's 60 s default; none elsewhere. */
function geminiTimeout(hook: string, config: RozConfig): { timeout?: number } {
  if (hook === 'stop') return { timeout: stopHookTimeoutSeconds(config) * 1000 };
  if (hook === 'pre-tool-use') return { timeout: ASKING_HOOK_TIMEOUT_S * 1000 };
  return {};
}

/**
 * Gemini CLI: roz's hooks in a system settings file roz writes into its store
 * (GEMINI_CLI_SYSTEM_SETTINGS_PATH: the highest of Gemini's settings layers,
 * above the user's and a trusted project's), one per content, reused.
 */
const launchGemini: Launcher = (client, req, pluginDir, config) => {
  const hookCommand = hookCommandFor(pluginDir);
  const hooks = Object.fromEntries(
    Object.entries(CLIENT_COMMANDS[client.id].hooks).map(([event, name]) => [
      event,
      // AfterAgent waits for the reviewer roz starts, BeforeTool under `roz run` for the human: each past roz's own
      // deadline (Gemini's default is 60 s, and a BeforeTool that times out lets the call run: observed, an
      // `rm -rf` the human had not answered ran). Gemini's timeout is in milliseconds.
      [
        {
          matcher: '*',
          hooks: [{ type: 'command', command: hookCommand(name), ...geminiTimeout(name, config) }],
        },
      ],
    ]),
  );
  const text = `${JSON.stringify({ hooksConfig: { enabled: true }, hooks }, null, 2)}\n`;
  const dir = join(resolve(req.cwd, config.storage.path), 'client-settings');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Gemini skips a system settings file below a folder others may write (observed: /tmp, sticky or not),
  // and would then run without roz's hooks: refuse to start instead (fail closed).
  const open = writableByOthers(dir);
  if (open)
    throw new RunError(
      `Gemini CLI ignores a system settings file under ${open} (writable by others), so roz's hooks would not run: put roz's store ([storage] path, ROZ_STORAGE_PATH) where only you can write`,
      2,
    );
  const file = join(dir, `gemini-${nameHash(text)}.json`);
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  }
  return {
    args: req.args,
    env: {
      ROZ_CLIENT: client.id,
      CLAUDE_PLUGIN_ROOT: pluginDir,
      CLAUDE_PROJECT_DIR: req.cwd,
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: file,
      ROZ_CLIENT_SANDBOX: `advisory: ${GEMINI_ADVISORY}`,
    },
    notes: [
      `gemini: roz's hooks in ${file} (GEMINI_CLI_SYSTEM_SETTINGS_PATH, above user and project settings)`,
      `gemini: advisory: ${GEMINI_ADVISORY}`,
      ...reviewNote(client, config),
    ],
    objects: null,
  };
};

const LAUNCHERS: Partial<Record<ClientId, Launcher>> = { codex: launchCodex, gemini: launchGemini };
