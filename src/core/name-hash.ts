// A short, fast, non-cryptographic hash of a string, for naming files (a
// project's pending selection, a cached parse). node:crypto costs a hook ~6 ms
// just to load, and these names need no secrecy: whoever reads the file checks
// that it holds what was asked for, so a collision is only a miss.

/** Two 32-bit FNV-1a-style lanes over UTF-16 code units, as 16 hex digits. */
export function nameHash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
