// SHA-256, hex. Governance hashes every file a change touches (Agent Trace
// content hashes, the stale-file check), each ledger line a hook appends (its
// LedgerAppended note), and the truncated trace copies hash the original.
// node:crypto costs a hook process ~5 ms (54M instructions) just to load, its
// module graph pulls in streams and ciphers, far more than hashing a source
// file in JavaScript. Past NATIVE_FROM bytes the JavaScript hash costs more
// than the load, so big inputs go to node:crypto.
//
// The JavaScript hash is written here (FIPS 180-4), not taken from
// @noble/hashes: a hook process runs it a few times, interpreted or in V8's
// baseline tier, never long enough to be optimised, and there every operation
// is a builtin call. This one keeps the state in locals, rotates inline and
// reads the message words through a DataView: a 700-byte ledger line costs
// 2.1M instructions instead of 4.4M (callgrind, fresh process), and a short hash
// does not make V8 compile anything with TurboFan. test/core/sha256.test.ts
// holds it to node:crypto's digest at every length across block edges.

const NATIVE_FROM = 256 * 1024;

/** The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const hex8 = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');

/** SHA-256 in JavaScript. Every value stays a 32-bit integer (`| 0`): an overflowing sum would become a heap number. */
function jsSha256Hex(msg: Uint8Array): string {
  const len = msg.length;
  // The message, 0x80, zeros, and its length in bits (64-bit big-endian), to a multiple of 64 bytes.
  const n = (len + 72) & ~63;
  const p = new Uint8Array(n);
  p.set(msg);
  p[len] = 0x80;
  const hi = Math.floor(len / 0x20000000);
  const lo = len << 3;
  p[n - 8] = hi >>> 24;
  p[n - 7] = hi >>> 16;
  p[n - 6] = hi >>> 8;
  p[n - 5] = hi;
  p[n - 4] = lo >>> 24;
  p[n - 3] = lo >>> 16;
  p[n - 2] = lo >>> 8;
  p[n - 1] = lo;
  const w = new Int32Array(64);
  // A big-endian word in one builtin call, not four loads and six operations.
  const words = new DataView(p.buffer, p.byteOffset, n);
  let h0 = 0x6a09e667;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab;
  let h7 = 0x5be0cd19;
  for (let off = 0; off < n; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = words.getInt32(off + 4 * t);
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (s1 + w[t - 7]! + ((s0 + w[t - 16]!) | 0)) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let t = 0; t < 64; t++) {
      // Σ1(e) + Ch(e, f, g) + K + W, and Σ0(a) + Maj(a, b, c), each with fewer operations than the textbook form.
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + (((g ^ (e & (f ^ g))) + ((K[t]! + w[t]!) | 0)) | 0)) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return hex8(h0) + hex8(h1) + hex8(h2) + hex8(h3) + hex8(h4) + hex8(h5) + hex8(h6) + hex8(h7);
}

export function sha256(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length >= NATIVE_FROM) return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
  return jsSha256Hex(bytes);
}
