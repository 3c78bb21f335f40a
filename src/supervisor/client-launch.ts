// How roz starts a client other than Claude Code (core/clients.ts): its
// command line with roz's hooks and sandbox (core/codex-launch.ts for Codex),
// and the environment its hook processes read — which client they serve
// (ROZ_CLIENT), roz's plugin and the project, and whether the client's own
// sandbox holds what roz asked of it (ROZ_CLIENT_SANDBOX, the session's
// enforcement mode). Reads the files the plan depends on; loaded only when
// such a client is launched.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ClientDescriptor } from '../core/clients.js';
import { CodexArgsError, codexLaunch } from '../core/codex-launch.js';
import type { RozConfig } from '../core/config.js';
import { protectedPaths } from '../engine/enforce-paths.js';
import { resolveReal } from '../store/realpath.js';
import { RunError } from './agent-run.js';

export interface ClientLaunch {
  args: string[];
  env: Record<string, string>;
  notes: string[];
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

export function launchOtherClient(
  client: ClientDescriptor,
  req: { args: string[]; cwd: string; env: Record<string, string> },
  pluginDir: string,
  config: RozConfig,
): ClientLaunch {
  if (client.id !== 'codex') throw new RunError(`roz cannot launch ${client.label} yet (docs/clients.md)`, 2);
  const env = req.env;
  const project = resolveReal(req.cwd);
  const paths = protectedPaths(env, req.cwd, null, pluginDir, config);
  const readOnly = [paths.store, paths.codeCache, ...paths.configFiles, paths.orchestration, paths.intentsOrchestration, paths.pluginDir].filter(
    (p): p is string => typeof p === 'string' && p.length > 0,
  );
  const codexHome = env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
  // The hook starts the node roz runs on and roz's own launcher, both by absolute path (launch-node.ts says why).
  const roz = join(pluginDir, 'bin', 'roz');
  const hookCommand = (name: string): string => `${shQuote(process.execPath)} --verify-snapshot-checksum ${shQuote(roz)} hook ${name}`;
  let plan: ReturnType<typeof codexLaunch>;
  try {
    plan = codexLaunch({
      args: req.args,
      hookCommand,
      hooks: client.hooks,
      project,
      readOnly,
      network: config.enforce.network,
      legacySandboxIn: settingSandboxMode([join(codexHome, 'config.toml'), join(project, '.codex', 'config.toml')]),
    });
  } catch (err) {
    if (err instanceof CodexArgsError) throw new RunError(err.message, 2);
    throw err;
  }
  // The gate's reviewer is a Claude Code subagent (plugin/agents/roz.md): Codex has none, and a reviewer roz starts itself is not built.
  const notes = [...plan.notes];
  if (config.review.mode !== 'never')
    notes.push(
      `codex: the review gate has no reviewer for ${client.label} yet: a Stop it blocks sends the agent back until its circuit breaker opens (review.mode = "never" to turn it off)`,
    );
  return {
    args: plan.args,
    env: {
      ROZ_CLIENT: client.id,
      CLAUDE_PLUGIN_ROOT: pluginDir,
      CLAUDE_PROJECT_DIR: req.cwd,
      ROZ_CLIENT_SANDBOX: plan.enforced ? 'enforced' : `advisory: ${plan.advisory.join('; ')}`,
    },
    notes,
  };
}
