// Replace a file so that readers see the old or the new content, never half:
// write a temporary file beside it, fsync, rename over. This is what
// write-file-atomic does; roz used it until the hook's start-up cost was
// measured (it pulls in signal-exit and worker_threads on every hook process).
// A temporary file left by a killed process is named `<file>.<pid>.<rand>.tmp`.
// Never through a link (store/no-follow.ts): the directories down from
// `within` are checked, the temporary file is made with O_EXCL|O_NOFOLLOW,
// and rename(2) replaces a link at the target instead of following it.
import { closeSync, constants, fsyncSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openNoFollow } from './no-follow.js';

/**
 * `within`: the directory roz means to write in (the store, the project);
 * `file` must be inside it. `durable: false` skips the fsync, for files that
 * are only a cache: the rename still makes the swap atomic for readers, but
 * after a power loss the file may be empty (and is rebuilt).
 */
export function writeFileAtomicSync(within: string, file: string, data: string, opts: { mode?: number; durable?: boolean; dirMode?: number } = {}): void {
  const tmpName = `${basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  let fd: number | undefined;
  let tmp: string | undefined;
  try {
    // O_EXCL: never reuse someone else's file.
    const opened = openNoFollow(
      within,
      join(dirname(file), tmpName),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      opts.mode ?? 0o666,
      opts.dirMode,
    );
    fd = opened.fd;
    tmp = opened.real;
    const buf = Buffer.from(data, 'utf8');
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
    if (opts.durable !== false) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, join(dirname(tmp), basename(file)));
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    try {
      if (tmp) unlinkSync(tmp);
    } catch {
      /* already renamed */
    }
    throw err;
  }
}
