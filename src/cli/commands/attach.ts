// `roz attach`: this window becomes the screen of the supervisor running
// this project's agents in the background (supervisor/host/background.ts), as
// `roz run` drew it: every agent's pane (replayed), the queue, the views.
// `D` in roz's views detaches again; closing the terminal does too.
import { resolve } from 'node:path';
import { liveSupervisors } from '../../supervisor/control/control-client.js';
import { loadPty } from '../../supervisor/launch/pty-module.js';
import { cliContext } from '../context.js';
import { NO_SUPERVISOR, REFUSED } from './queue.js';
import { attachScreen, processEnv } from './run.js';
import { askResume, findInterrupted, interruptedNote, resumeChosen } from './resume-offer.js';

export async function attachCommand(opts: { stats?: boolean }): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('roz attach: needs an interactive terminal (stdin and stdout must be a TTY); roz queue/approve/block work from any shell\n');
    return 2;
  }
  const pty = await loadPty(processEnv());
  if (!pty.ok) {
    process.stderr.write(`${pty.message}\n`);
    return 1;
  }
  const store = resolve(process.cwd(), cliContext().config.storage.path);
  const { live, unreadable } = await liveSupervisors(store, process.cwd());
  const enforced = live.filter((l) => l.record.enforcement.mode === 'enforced');
  const rec = enforced.at(-1);
  // Agents a supervisor that is gone was running (killed, a reboot): offered to the one that runs, else said.
  const interrupted = unreadable ? null : findInterrupted(store, process.cwd(), new Set(live.map((l) => l.record.pid)));
  if (!rec) {
    if (interrupted) process.stderr.write(`${interruptedNote('roz attach', interrupted)}\n`);
    process.stderr.write(
      unreadable
        ? `roz attach: cannot read roz's control records (${unreadable})\n`
        : live.length > 0
          ? `roz attach: this project's supervisor (pid ${live[0]!.record.pid}) is advisory: it runs in the window it started in, and only that window drives it\n`
          : 'roz attach: no roz supervisor is running for this project (start one with `roz run claude`)\n',
    );
    return live.length > 0 && !unreadable ? REFUSED : NO_SUPERVISOR;
  }
  if (interrupted) await resumeChosen('roz attach', rec, await askResume('roz attach', store, interrupted));
  if (enforced.length > 1) process.stderr.write(`roz attach: ${enforced.length} supervisors run here; attaching to the newest (pid ${rec.record.pid})\n`);
  return attachScreen('roz attach', rec, opts.stats !== false);
}
