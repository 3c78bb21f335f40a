// Reads what decides the session's enforcement mode (core/enforce/mode.ts):
// the run's settings file and whether the client was started with it, managed,
// user, project and local settings, and whether the sandbox's tools exist.
// SessionStart only: a few small file reads, no heavy imports.
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { decideMode, type Enforcement } from '../core/enforce/mode.js';
import { hookClient } from '../core/clients.js';
import type { ClaudeSettings } from '../core/enforce/settings.js';
import { resolveReal } from '../store/realpath.js';
import { readRegularText, UnreadableFileError } from '../store/regular-file.js';

const MAX_SETTINGS_BYTES = 1024 * 1024;

/** A settings file, read only when it is a regular file (never block on a FIFO). */
function readSettings(file: string): { doc: ClaudeSettings | null; error?: string } {
  let text: string;
  try {
    text = readRegularText(file, MAX_SETTINGS_BYTES);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { doc: null, error: e instanceof UnreadableFileError ? (e.code === 'ENOTREG' ? 'not a regular file' : 'too large') : (e.code ?? 'unreadable') };
  }
  try {
    const doc = JSON.parse(text) as unknown;
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? { doc: doc as ClaudeSettings } : { doc: null, error: 'not a JSON object' };
  } catch (err) {
    return { doc: null, error: (err as Error).message.split('\n')[0] };
  }
}

function onPath(cmd: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function sandboxTools(env: Record<string, string | undefined>): { ok: boolean; missing: string[] } | null {
  if (process.platform === 'linux') {
    const missing = ['bwrap', 'socat'].filter((c) => !onPath(c, env.PATH));
    return { ok: missing.length === 0, missing };
  }
  if (process.platform === 'darwin')
    return onPath('sandbox-exec', `/usr/bin:${env.PATH ?? ''}`) ? { ok: true, missing: [] } : { ok: false, missing: ['sandbox-exec'] };
  return null;
}

/** Whether an ancestor of this hook has `arg` among its arguments: Linux /proc only; null where that cannot be read. */
function ancestorArgHas(arg: string): boolean | null {
  if (process.platform !== 'linux') return null;
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    let argv: string[];
    let stat: string;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return depth === 0 ? null : false;
    }
    if (argv.includes(arg)) return true;
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

/**
 * Whether an ancestor of this hook (the client) was started with
 * `--settings FILE`: Linux /proc only; null where that cannot be read.
 */
function launchedWith(file: string): boolean | null {
  if (process.platform !== 'linux') return null;
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    let argv: string[];
    let stat: string;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return depth === 0 ? null : false;
    }
    const i = argv.indexOf('--settings');
    if ((i >= 0 && argv[i + 1] === file) || argv.includes(`--settings=${file}`)) return true;
    // Field 4 of stat, after the parenthesised command name (which may hold spaces).
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

export function managedSettingsFile(): string {
  return process.platform === 'darwin' ? '/Library/Application Support/ClaudeCode/managed-settings.json' : '/etc/claude-code/managed-settings.json';
}

export function detectEnforcement(opts: { env: Record<string, string | undefined>; home: string; projectDir: string; store: string }): Enforcement {
  const { env, home, projectDir } = opts;
  const runFile = env.ROZ_SETTINGS_FILE;
  // ROZ_SETTINGS_LAUNCHED: set only in the supervisor's own environment for the hooks it runs in-process
  // (http hooks): the client is its child there, not an ancestor to find in /proc.
  const run = runFile ? { file: runFile, ...readSettings(runFile), launchedWith: env.ROZ_SETTINGS_LAUNCHED === runFile ? true : launchedWith(runFile) } : null;
  const managedFile = managedSettingsFile();
  const managedRead = readSettings(managedFile);
  const claudeDir = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  const others = [join(claudeDir, 'settings.json'), join(projectDir, '.claude', 'settings.json'), join(projectDir, '.claude', 'settings.local.json')]
    .map((file) => ({ file, doc: readSettings(file).doc }))
    .filter((o): o is { file: string; doc: ClaudeSettings } => o.doc !== null);
  return decideMode({
    sandboxTools: sandboxTools(env),
    run,
    managed: managedRead.doc ? { file: managedFile, doc: managedRead.doc } : null,
    others,
    store: resolveReal(opts.store),
  });
}

/**
 * The enforcement of a session of another client (ROZ_CLIENT, core/clients.ts):
 * its own sandbox as roz's launcher configured it, told in ROZ_CLIENT_SANDBOX
 * (`enforced`, or `advisory: <what is not held>`). Null for Claude Code.
 */
export function clientEnforcement(env: Record<string, string | undefined>): Enforcement | null {
  const client = hookClient(env);
  if (client.id === 'claude') return null;
  const said = env.ROZ_CLIENT_SANDBOX ?? '';
  if (said === 'enforced') {
    // Believed only of a client whose command line carries the profile roz puts there (core/codex-launch.ts):
    // anyone can set the variable, and a codex started without that profile is not confined by it.
    const seen = client.sandboxMark ? ancestorArgHas(client.sandboxMark) : null;
    if (seen !== false) return { mode: 'enforced', reasons: [] };
    return { mode: 'advisory', reasons: [`${client.label}: the session says enforced, but no ancestor of this hook was started with roz's sandbox profile`] };
  }
  const why = said.startsWith('advisory: ') ? said.slice('advisory: '.length) : `${client.label} was not started by roz exec with its sandbox configured`;
  return { mode: 'advisory', reasons: [`${client.label}: ${why}`] };
}

/** The one line said at SessionStart in advisory mode. */
export function advisoryMessage(e: Enforcement, env: Record<string, string | undefined> = {}): string {
  if (hookClient(env).id !== 'claude')
    return `roz: ADVISORY mode: ${e.reasons.join('; ')}. roz's hooks still judge every tool call, but an agent determined to get around them can.`;
  return (
    `roz: ADVISORY mode: the agent's Bash is not confined by roz's sandbox settings (${e.reasons.join('; ')}). ` +
    "roz's hooks still judge every tool call, but an agent determined to get around them can. Start with `roz exec claude` or `roz run claude` for enforced mode."
  );
}
