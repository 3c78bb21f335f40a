// Tells the supervisor when a file it shows (active_intents.yaml, config)
// changes on disk: chokidar's file events (inotify/FSEvents through
// fs.watch), falling back to polling only when events are unavailable (the
// watcher errors, e.g. out of inotify watches). Watches the files themselves:
// chokidar follows an editor's write-to-temp-then-rename onto a new inode,
// which a watch of the directory would miss.
// Supervisor only: the hook path never loads this.
import { watch, type FSWatcher } from 'chokidar';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface FileWatchOptions {
  /** Polling interval when events are unavailable. */
  pollMs?: number;
  /** Start in polling mode (tests of the fallback). */
  poll?: boolean;
}

export class FileWatch {
  private watcher: FSWatcher | null = null;
  private readonly files = new Set<string>();
  private polling: boolean;
  private closed = false;
  /** Resolves once the current watcher has scanned its directories. */
  ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly onChange: (file: string) => void,
    private readonly opts: FileWatchOptions = {},
  ) {
    this.polling = opts.poll === true;
  }

  get mode(): 'events' | 'polling' {
    return this.polling ? 'polling' : 'events';
  }

  /** Watch one more file (one that does not exist yet is seen when it appears in an existing directory). */
  add(file: string): void {
    const f = resolve(file);
    if (this.closed || this.files.has(f)) return;
    this.files.add(f);
    // A fresh watcher over every file (adds are rare): its `ready` says when the new one is watched.
    void this.watcher?.close();
    this.start();
  }

  private start(): void {
    // chokidar reports `ready` too early when given a path that does not exist:
    // a missing file is watched through its directory (depth 0) until it appears.
    const targets = new Set<string>();
    for (const f of this.files) {
      if (existsSync(f)) targets.add(f);
      else if (existsSync(dirname(f))) targets.add(dirname(f));
    }
    const w = watch([...targets], {
      ignoreInitial: true,
      depth: 0,
      // In a watched directory only our files matter (~/.roz also holds the store's busy files).
      ignored: (path: string) => {
        const p = resolve(path);
        return !targets.has(p) && !this.files.has(p);
      },
      usePolling: this.polling,
      interval: this.opts.pollMs ?? 500,
      persistent: false,
    });
    this.watcher = w;
    this.ready = new Promise((r) => w.once('ready', () => r()));
    const hear = (path: string): void => {
      const f = resolve(path);
      if (!this.files.has(f)) return;
      // Seen through its directory: from now on watch the file itself.
      if (!targets.has(f) && this.watcher === w) {
        void w.close();
        this.start();
      }
      this.onChange(f);
    };
    w.on('add', hear).on('change', hear).on('unlink', hear);
    w.on('error', () => {
      if (this.polling || this.closed) return;
      // Events are unavailable here: poll instead.
      this.polling = true;
      void w.close();
      this.start();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher?.close();
    this.watcher = null;
  }
}
