// A random (version 4) UUID for ledger records. From /dev/urandom rather than
// crypto.randomUUID: node:crypto costs a hook process ~5 ms to load (its module
// graph pulls in streams and ciphers), which a governed change paid on every
// write just for this id. Where there is no /dev/urandom, node:crypto.
import { closeSync, openSync, readSync } from 'node:fs';

export function randomUuid(): string {
  const b = Buffer.alloc(16);
  let fd: number | null = null;
  try {
    fd = openSync('/dev/urandom', 'r');
    if (readSync(fd, b, 0, 16, null) !== 16) return process.getBuiltinModule('node:crypto').randomUUID();
  } catch {
    return process.getBuiltinModule('node:crypto').randomUUID();
  } finally {
    if (fd !== null) closeSync(fd);
  }
  b[6] = (b[6]! & 0x0f) | 0x40; // version 4
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
