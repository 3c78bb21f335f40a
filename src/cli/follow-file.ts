// Follows an append-only file (a session's trace.jsonl) as it grows, driven by
// file-system events through chokidar; polling only where events are not
// available (chokidar's own choice, CHOKIDAR_USEPOLLING, or a watcher that
// fails, e.g. out of inotify watches). Loaded only by `roz trace --follow`.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
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
export async function followLines(file: string, onLine: (line: string) => void, opts: { poll?: boolean } = {}): Promise<FileFollower> {
  const { watch } = await import('chokidar');
  let offset = 0;
  let partial = '';
  const readNew = (): void => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return; // not created yet
    }
    try {
      const size = fstatSync(fd).size;
      if (size < offset) offset = 0; // replaced by a shorter file: start over
      while (offset < size) {
        const buf = Buffer.alloc(Math.min(size - offset, 1 << 20));
        const n = readSync(fd, buf, 0, buf.length, offset);
        if (n === 0) break;
        offset += n;
        const lines = (partial + buf.subarray(0, n).toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) onLine(line);
      }
    } finally {
      closeSync(fd);
    }
  };

  type Watching = { mode: 'events' | 'polling'; watcher: FSWatcher };
  const start = async (usePolling: boolean): Promise<Watching> => {
    // The directory, not the file: a file that does not exist yet gives no events of its own.
    const watcher = watch(dirname(file), { ignoreInitial: true, depth: 0, usePolling, interval: 200, persistent: true });
    const onFile = (p: string): void => {
      if (p === file) readNew();
    };
    watcher.on('add', onFile).on('change', onFile);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
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
    close: () => current.watcher.close(),
  };
}
