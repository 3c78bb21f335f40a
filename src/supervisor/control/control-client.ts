// The human's side of the control socket (control-server.ts): find the live
// supervisors of this project in roz's store and send one request to one of
// them. Used by `roz queue`, `roz approve`, `roz block` and `roz agent ...`.
import { createConnection } from 'node:net';
import { type FoundRecord, controlKey, findControlRecords, removeControlRecord } from '../../store/control-record.js';
import { CONTROL_VERSION, type ControlReply, type ControlRequest } from './control-protocol.js';

/** A supervisor answers at once; anything slower is dead or wedged. */
const REQUEST_TIMEOUT_MS = 10_000;

type Op = ControlRequest extends infer R ? (R extends { op: string } ? Omit<R, 'v' | 'secret'> : never) : never;

export type SendResult = { reached: true; reply: ControlReply } | { reached: false; error: string; stale: boolean };

/** One request to one supervisor. `stale`: nothing listens there (the record was left behind by a killed supervisor). */
export function sendControl(rec: FoundRecord, op: Op, timeoutMs = REQUEST_TIMEOUT_MS): Promise<SendResult> {
  return new Promise((resolve) => {
    const sock = createConnection(rec.record.socket);
    let buf = '';
    let settled = false;
    const done = (r: SendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(
      () => done({ reached: false, error: `no answer from the supervisor (pid ${rec.record.pid}) within ${timeoutMs} ms`, stale: false }),
      timeoutMs,
    );
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(`${JSON.stringify({ v: CONTROL_VERSION, secret: rec.record.secret, ...op })}\n`));
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        done({ reached: true, reply: JSON.parse(buf.slice(0, nl)) as ControlReply });
      } catch (err) {
        done({ reached: false, error: `the supervisor sent something that is not JSON: ${(err as Error).message}`, stale: false });
      }
    });
    sock.on('error', (err: NodeJS.ErrnoException) =>
      done({
        reached: false,
        error: `cannot reach the supervisor at ${rec.record.socket}: ${err.code ?? err.message}`,
        stale: err.code === 'ENOENT' || err.code === 'ECONNREFUSED',
      }),
    );
    sock.on('close', () => done({ reached: false, error: 'the supervisor closed the connection without an answer', stale: false }));
  });
}

/**
 * The supervisors running for the project at `cwd` that answer: records of
 * dead pids, and of sockets nothing listens on, are removed. `unreadable`:
 * roz's control directory cannot be read (inside an agent's sandbox: denied).
 */
export async function liveSupervisors(store: string, cwd: string): Promise<{ live: FoundRecord[]; unreadable: string | null; stale: number }> {
  const { found, stale, unreadable } = findControlRecords(store, controlKey(cwd));
  const live: FoundRecord[] = [];
  let gone = stale;
  for (const f of found) {
    // A cheap probe: the queue. A socket nothing listens on is a record left by a supervisor that was killed.
    const r = await sendControl(f, { op: 'queue' });
    if (!r.reached && r.stale) {
      removeControlRecord(f.file);
      gone++;
      continue;
    }
    live.push(f);
  }
  return { live, unreadable, stale: gone };
}
