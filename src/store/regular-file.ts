// Reading a file roz trusts only as far as its content: config, templates,
// intents, .intentignore, session state. The agent can put anything at those
// paths, so a read must never wait (a FIFO blocks open() until a writer comes,
// and read() until it writes; a device never ends) and never grow without
// bound. Opened with O_NONBLOCK (a FIFO opens at once), checked with fstat on
// the open descriptor (no swap between check and read), refused unless it is a
// regular file of at most `maxBytes`.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { openNoFollow } from './no-follow.js';

/** A path that is not a regular file, or one too large: a clear error, never a wait. */
export class UnreadableFileError extends Error {
  constructor(
    message: string,
    readonly code: 'ENOTREG' | 'EFBIG',
  ) {
    super(message);
  }
}

export const KiB = 1024;
export const MiB = 1024 * KiB;

function kindOf(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The bytes of `file`; throws ENOENT and the like as fs does, and UnreadableFileError for what roz refuses to read.
 * `noFollow`: a link at the last component is refused (ELOOP), for a path in a directory the agent writes.
 */
export function readRegularFile(file: string, maxBytes: number, opts: { noFollow?: boolean } = {}): Buffer {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0) | (opts.noFollow ? constants.O_NOFOLLOW : 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnreadableFileError(`${file} is ${kindOf(st)}; roz reads it only from a regular file`, 'ENOTREG');
    if (st.size > maxBytes) throw new UnreadableFileError(`${file} is ${st.size} bytes, more than the ${maxBytes} roz reads`, 'EFBIG');
    // What fstat saw: a file that grows meanwhile (an appended ledger) is read as it was.
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

export function readRegularText(file: string, maxBytes: number): string {
  return readRegularFile(file, maxBytes).toString('utf8');
}

/** The text of `file`, or null when it does not exist; anything else unreadable throws. */
export function readOptionalText(file: string, maxBytes: number): string | null {
  try {
    return readRegularText(file, maxBytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Append `text` to `file` (inside `within`, created when missing) with one
 * write, refusing anything but a regular file and never through a link
 * (store/no-follow.ts). O_NONBLOCK so a FIFO there fails (ENXIO, or the type
 * check) instead of waiting for a reader. One write with O_APPEND: lines of
 * concurrent writers never interleave.
 */
export function appendRegularFile(within: string, file: string, text: string, opts: { mode?: number; exclusive?: boolean; dirMode?: number } = {}): void {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (opts.exclusive ? constants.O_EXCL : 0);
  const { fd } = openNoFollow(within, file, flags, opts.mode ?? 0o644, opts.dirMode);
  try {
    const buf = Buffer.from(text, 'utf8');
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
  } finally {
    closeSync(fd);
  }
}
