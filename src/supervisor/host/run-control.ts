// The control socket of a `roz run` (control-server.ts): started once the
// client runs, with what this launch knows about its own enforcement, and a
// FleetControl that can stop the one agent this run has. The fleet host that
// starts and stops several agents replaces that FleetControl.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Enforcement } from '../../core/enforce/mode.js';
import { detectEnforcement } from '../../engine/enforce-probe.js';
import { controlKey } from '../../store/control-record.js';
import { FIRST_AGENT } from '../../core/fleet/agent-name.js';
import type { AttachHost } from '../attach/attach-hub.js';
import { ControlServer } from '../control/control-server.js';
import type { FleetControl } from '../control/fleet-control.js';
import type { Supervisor } from '../supervisor.js';

/** After SIGTERM, how long the child gets before SIGKILL. */
const STOP_GRACE_MS = 3_000;

export interface RunControlOptions {
  supervisor: Supervisor;
  child: { kill(signal?: NodeJS.Signals): void; exited: Promise<number> };
  env: Record<string, string | undefined>;
  cwd: string;
  /** roz's store, as the run's config names it. */
  store: string;
  /** The settings file the client was launched with; null when roz wrote none (not claude): advisory. */
  settingsFile: string | null;
  /** The first agent's enforcement as its launch decided it (another client's own sandbox); else from settingsFile. */
  enforcement?: Enforcement;
  /** Replaces the one-agent FleetControl (the fleet host). */
  fleet?: FleetControl;
  /** The fleet screens attach to (`roz attach`); absent: attach is refused. */
  attach?: AttachHost;
  socketBaseDir?: string;
}

/**
 * Whether this launch confines its agent, decided by the supervisor from its
 * own facts (the settings file it wrote and launched the client with, the
 * sandbox's tools, managed/user/project settings), not from anything the
 * agent reports.
 */
export function launchEnforcement(env: Record<string, string | undefined>, cwd: string, store: string, settingsFile: string | null): Enforcement {
  if (!settingsFile) return { mode: 'advisory', reasons: ['the agent is not Claude Code launched with roz settings'] };
  return detectEnforcement({
    env: { ...env, ROZ_SETTINGS_FILE: settingsFile, ROZ_SETTINGS_LAUNCHED: settingsFile },
    home: env.HOME || homedir(),
    projectDir: cwd,
    store: resolve(cwd, store),
  });
}

/** Stop the run's one agent (`main`): SIGTERM, then SIGKILL after a grace period. */
export function oneAgentFleet(child: RunControlOptions['child']): FleetControl {
  const stop = (): { ok: boolean; message: string } => {
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    void child.exited.finally(() => clearTimeout(t));
    return { ok: true, message: `stopping ${FIRST_AGENT} (the run ends with it)` };
  };
  return {
    startAgent: async (name) => ({
      ok: false,
      message: `this roz run supervises one agent (${FIRST_AGENT}); starting ${name} under it is not available in this run yet: cd to its worktree and roz run claude`,
    }),
    stopAgent: async (name) => (name === FIRST_AGENT ? stop() : { ok: false, message: `no agent ${name} in this run (it has ${FIRST_AGENT})` }),
    stopAll: async () => stop(),
  };
}

/** Start the control server; on failure say why in `notes` and go on (the TUI keyboard still answers). */
export async function startRunControl(opts: RunControlOptions, notes: string[]): Promise<ControlServer | null> {
  try {
    return await ControlServer.start({
      supervisor: opts.supervisor,
      fleet: opts.fleet ?? oneAgentFleet(opts.child),
      ...(opts.attach ? { attach: { host: opts.attach, supervisor: opts.supervisor } } : {}),
      store: resolve(opts.cwd, opts.store),
      repo: controlKey(opts.cwd),
      cwd: opts.cwd,
      enforcement: opts.enforcement ?? launchEnforcement(opts.env, opts.cwd, opts.store, opts.settingsFile),
      ...(opts.socketBaseDir ? { socketBaseDir: opts.socketBaseDir } : {}),
    });
  } catch (err) {
    notes.push(`the control socket could not start (${(err as Error).message}): roz queue/approve/block cannot reach this run; answer in its TUI`);
    return null;
  }
}
