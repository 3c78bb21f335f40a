// After the demo's window closes. `roz run` also returns when the human
// detaches (D), while roz's background supervisor keeps the agents running;
// but the scripted model is this demo's own server, so the demo must not end
// (nor close the model or remove its project) under running agents. While the
// supervisor answers, offer `roz attach` again, or stop every agent.
import { spawn } from 'node:child_process';

export interface ReattachOptions {
  rozBin: string;
  env: Record<string, string>;
  cwd: string;
  /** What `roz run` exited with. */
  code: number;
  waitForEnter: () => Promise<boolean>;
}

function roz(o: ReattachOptions, args: string[], inherit = false): Promise<number> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [o.rozBin, ...args], { cwd: o.cwd, env: o.env, stdio: inherit ? 'inherit' : 'ignore' });
    c.on('exit', (code, sig) => resolve(code ?? (sig ? 128 : 1)));
    c.on('error', () => resolve(1));
  });
}

/**
 * Whether the run's supervisor still runs: `roz queue` answers (exit 0).
 * A supervisor whose last agent just exited is removing its record: asked
 * three times, it has gone by the last unless the window was detached.
 */
async function supervisorRuns(o: ReattachOptions): Promise<boolean> {
  for (let i = 0; i < 3; i++) {
    if ((await roz(o, ['queue', '--json'])) !== 0) return false;
    await new Promise((r) => setTimeout(r, 700));
  }
  return true;
}

/** What the demo says after a detach, at most 80 columns a line (test/process/demo-intros.test.ts). */
export const REATTACH_PROMPT = [
  "You detached: roz's supervisor keeps the agents running in the background,",
  'and this demo keeps their scripted model. Press Enter to attach again',
  '(`roz attach`), Ctrl-C to stop every agent and end the demo.',
];

/** Until every agent has exited: the last exit code of the window (`roz run`, then `roz attach`). */
export async function untilAgentsEnd(o: ReattachOptions): Promise<number> {
  let code = o.code;
  while (await supervisorRuns(o)) {
    process.stdout.write(`\n${REATTACH_PROMPT.join('\n')} `);
    if (!(await o.waitForEnter())) {
      await roz(o, ['agent', 'stop', '--all']);
      for (let i = 0; i < 20 && (await roz(o, ['queue', '--json'])) === 0; i++) await new Promise((r) => setTimeout(r, 500));
      return code;
    }
    code = await roz(o, ['attach'], true);
  }
  return code;
}
