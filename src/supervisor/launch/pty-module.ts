// Finds the pseudo-terminal module (@lydell/node-pty, prebuilt binaries, so no
// compiler and no install script) for `roz run`. It is the one package roz
// does not bundle, so a copy of roz without node_modules beside it (Claude
// Code's plugin cache, whose bin/ roz puts on the session's PATH) borrows it
// from a roz installed as a package: one found on PATH or in npm's global
// prefix. Never from the project or the current directory, which the agent
// can write. When none has it, the caller prints one line saying how to get it.
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export type PtyApi = Pick<typeof import('@lydell/node-pty'), 'spawn'>;

export type PtyLoad = { ok: true; pty: PtyApi; from: string } | { ok: false; message: string };

const NAME = '@lydell/node-pty';

/** Package roots of other roz installs worth borrowing the module from, nearest first. */
export function otherRozRoots(env: Record<string, string | undefined>, execPath: string): string[] {
  const roots: string[] = [];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      // <pkg>/bin/roz or <pkg>/plugin/bin/roz: both resolve upwards to <pkg>/node_modules.
      roots.push(dirname(dirname(realpathSync(join(dir, 'roz')))));
    } catch {
      /* no roz here */
    }
  }
  for (const prefix of [env.npm_config_prefix, dirname(dirname(execPath))]) {
    if (prefix) roots.push(join(prefix, 'lib', 'node_modules', 'roz'));
  }
  return [...new Set(roots)];
}

function usable(mod: unknown): PtyApi | null {
  const m = mod as Partial<PtyApi> & { default?: Partial<PtyApi> };
  const spawn = m.spawn ?? m.default?.spawn;
  return typeof spawn === 'function' ? { spawn } : null;
}

let cached: PtyLoad | undefined;

/**
 * The pty module, or why there is none. Loading it also loads its native
 * binary, so a module that resolves but cannot run on this platform counts as
 * missing here rather than failing later inside the UI.
 */
export async function loadPty(env: Record<string, string | undefined> = process.env, execPath = process.execPath): Promise<PtyLoad> {
  if (cached?.ok) return cached;
  let first: string | null = null;
  try {
    const pty = usable(await import('@lydell/node-pty'));
    if (pty) return (cached = { ok: true, pty, from: 'beside roz' });
  } catch (err) {
    first = (err as Error).message.split('\n')[0] ?? null;
  }
  for (const root of otherRozRoots(env, execPath)) {
    try {
      const pty = usable(createRequire(join(root, 'package.json'))(NAME));
      if (pty) return (cached = { ok: true, pty, from: root });
    } catch {
      /* not installed there */
    }
  }
  const missing = !first || /Cannot find (package|module)/.test(first);
  const why = missing ? `${NAME} is not installed beside this roz` : `${NAME} does not load here (${first})`;
  return {
    ok: false,
    message:
      `roz run: ${why}, nor in another roz on PATH; install roz as a package ` +
      '(in the roz checkout: npm pack, then npm install -g ./roz-<version>.tgz) and run that roz',
  };
}
