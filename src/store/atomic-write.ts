// Replace a file so that readers see the old or the new content, never half:
// write a temporary file beside it, fsync, rename over. This is what
// write-file-atomic does; roz used it until the hook's start-up cost was
// measured (it pulls in signal-exit and worker_threads on every hook process).
// A temporary file left by a killed process is named `<file>.<pid>.<rand>.tmp`.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/**
 * `durable: false` skips the fsync, for files that are only a cache: the
 * rename still makes the swap atomic for readers, but after a power loss the
 * file may be empty (and is rebuilt).
 */
export function writeFileAtomicSync(file: string, data: string, opts: { mode?: number; durable?: boolean } = {}): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  let fd: number | undefined;
  try {
    // 'wx': never follow or reuse someone else's file.
    fd = openSync(tmp, 'wx', opts.mode ?? 0o666);
    const buf = Buffer.from(data, 'utf8');
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
    if (opts.durable !== false) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      /* never created, or already renamed */
    }
    throw err;
  }
}
