// `roz exec`'s hooks without a process: on clients with `onFailure` (2.1.295+)
// the launcher itself takes the client's http hooks (http-hook-server.ts) and
// runs the engine here, as `roz run`'s supervisor does, but with no human to
// ask: the answer is exactly what a hook process would print, so an `ask`
// goes to the client's own handling (print mode denies it). No channel, no
// approval broker, no file watching: this process only judges hooks.
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEventName } from '../../core/hook-input.js';
import { HttpHookServer } from './http-hook-server.js';

export interface InProcessHooksOptions {
  /** The launcher's environment: the base of what the engine sees for each hook. */
  env: Record<string, string | undefined>;
  /** roz's store, for the log of refused requests. */
  storePath: string;
  /** Told how long each hook took roz, request in to answer out (bench and tests). */
  onHook?: (event: string, ms: number) => void;
}

export class InProcessHooks {
  private hookEnv: Record<string, string | undefined>;

  private constructor(
    private readonly server: HttpHookServer,
    readonly token: string,
    opts: InProcessHooksOptions,
  ) {
    this.hookEnv = { ...opts.env, ...this.childEnv(), ROZ_HOOK_TRANSPORT: 'http' };
  }

  static async start(opts: InProcessHooksOptions): Promise<InProcessHooks> {
    const token = randomBytes(32).toString('hex');
    const log = (line: string): void => {
      try {
        mkdirSync(opts.storePath, { recursive: true, mode: 0o700 });
        appendFileSync(join(opts.storePath, 'exec.log'), `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
      } catch {
        /* logging must never take the run down */
      }
    };
    let self: InProcessHooks | null = null;
    const server = await HttpHookServer.start({
      token,
      handle: async (event: HookEventName, raw: string) => {
        const t0 = performance.now();
        const { runHook } = await import('../../engine/engine.js');
        const run = await runHook(event, raw, { env: self!.hookEnv });
        opts.onHook?.(event, performance.now() - t0);
        return run.stdout;
      },
      onRefused: (code, message) => log(`refused an http hook: ${code}: ${message}`),
    });
    self = new InProcessHooks(server, token, opts);
    return self;
  }

  /** `http://127.0.0.1:PORT` of the hook endpoint. */
  get httpUrl(): string {
    return this.server.url;
  }

  /** What the child needs to reach us: the token its http hooks send (never visible to sandboxed Bash). */
  childEnv(): Record<string, string> {
    return { ROZ_TOKEN: this.token };
  }

  /** More of the child's environment for the in-process hooks (the settings file, the plugin root). */
  addHookEnv(extra: Record<string, string>): void {
    Object.assign(this.hookEnv, extra);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
