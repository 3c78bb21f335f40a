// SHA-256, hex. Governance hashes every file a change touches (Agent Trace
// content hashes, the stale-file check), and the truncated trace copies hash
// the original. node:crypto costs a hook process ~5 ms just to load (its module
// graph pulls in streams and ciphers), far more than hashing a source file in
// JavaScript; @noble/hashes is audited, small and dependency-free. Past
// NATIVE_FROM bytes the JavaScript hash (uncompiled in a short-lived process)
// costs more than the load, so big inputs go to node:crypto.
import { sha256 as jsSha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';

const NATIVE_FROM = 256 * 1024;

export function sha256(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length >= NATIVE_FROM) return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
  return bytesToHex(jsSha256(bytes));
}
