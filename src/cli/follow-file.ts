// Follows an append-only file (a session's trace.jsonl) as it grows, driven by
// file-system events through chokidar; polling only where events are not
// available (chokidar's own choice, CHOKIDAR_USEPOLLING, or a watcher that
// fails, e.g. out of inotify watches). Loaded only by `roz trace --follow`.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { FSWatcher } from 'chokidar';

export interface FileFollower {
  /** How changes are noticed. */
  readonly mode: 'events' | 'polling';
  close(): Promise<void>;
}

/**
 * Calls `onLine` for every complete line of `file`, from its start, then for
 * each line appended later. The file may not exist yet; its directory must.
 */
const POLL_MS = 200;

export async function followLines(file: string, onLine: (line: string) => void, opts: { poll?: boolean } = {}): Promise<FileFollower> {
  const { watch } = await import('chokidar');
  let offset = 0;
  let partial = '';
  // A read may end inside a multi-byte character: the decoder keeps its first bytes for the next.
  let decoder = new StringDecoder('utf8');
  const readNew = (): void => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return; // not created yet
    }
    try {
      const size = fstatSync(fd).size;
      if (size < offset) {
        // Replaced by a shorter file: start over.
        offset = 0;
        partial = '';
        decoder = new StringDecoder('utf8');
      }
      while (offset < size) {
        const buf = Buffer.alloc(Math.min(size - offset, 1 << 20));
        const n = readSync(fd, buf, 0, buf.length, offset);
        if (n === 0) break;
        offset += n;
        const lines = (partial + decoder.write(buf.subarray(0, n))).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) onLine(line);
      }
    } finally {
      closeSync(fd);
    }
  };

  let trailing: NodeJS.Timeout | undefined;
  // Polling mode also reads on a timer of its own: chokidar's polling watches
  // the directory's stat, and a file created in the same instant as a check can
  // go unnoticed until the next change (seen on Node 26).
  let ticker: NodeJS.Timeout | undefined;
  type Watching = { mode: 'events' | 'polling'; watcher: FSWatcher };
  const start = async (usePolling: boolean): Promise<Watching> => {
    // The directory, not the file: a file that does not exist yet gives no events of its own.
    const watcher = watch(dirname(file), { ignoreInitial: true, depth: 0, usePolling, interval: POLL_MS, persistent: true });
    const onFile = (p: string): void => {
      if (p !== file) return;
      readNew();
      // chokidar throttles events on one file (a few ms): a write landing inside
      // that window has no event of its own, so read once more just after.
      clearTimeout(trailing);
      trailing = setTimeout(readNew, 100);
    };
    watcher.on('add', onFile).on('change', onFile);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    if (usePolling && !ticker) ticker = setInterval(readNew, POLL_MS);
    // Events can fail after the start (no inotify watches left): poll from then on.
    watcher.on('error', () => {
      if (current.mode === 'polling') return;
      void watcher.close().then(async () => {
        current = await start(true);
        readNew();
      });
    });
    return { mode: watcher.options.usePolling ? 'polling' : 'events', watcher };
  };

  let current: Watching = await start(opts.poll === true);
  readNew();
  return {
    get mode() {
      return current.mode;
    },
    close: () => {
      clearTimeout(trailing);
      clearInterval(ticker);
      return current.watcher.close();
    },
  };
}
