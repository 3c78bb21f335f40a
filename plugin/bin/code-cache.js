// Runs a CommonJS bundle with a V8 code cache, so a hook process skips parsing
// and compiling ~1.5 MB of JavaScript on every tool call. Node 22's
// module.enableCompileCache does this for modules; Node 20 has no built-in, so
// this is the same idea in one place: vm.Script with cachedData.
//
// The cache is code, so it is only read from a directory and file that this
// user owns and nobody else can write, and it is replaced atomically. V8 checks
// its own version, flags and the source length; the file name adds the bundle's
// size and mtime, so a rebuilt bundle never runs against old bytecode.
// Set ROZ_CODE_CACHE=off to disable, or to a directory to move it.
//
// V8 caches only functions that have run. The bundle names the lazily loaded
// parts a process used (globalThis.__rozCodePaths: "governance", "supervised");
// a sidecar file lists those the cache covers, and a process that used one it
// does not cover rewrites the cache, so it grows to what this user runs.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

function cacheDir(env) {
  const v = env.ROZ_CODE_CACHE;
  if (v === 'off' || v === '0' || v === 'false') return null;
  if (v) return v;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'roz');
}

/** Owned by us and not writable by group or others. */
function isPrivate(st) {
  return (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o022) === 0;
}

function privateDir(dir) {
  try {
    return isPrivate(fs.statSync(dir));
  } catch {
    return false;
  }
}

/** The file's bytes if we own it and nobody else can write it, else undefined. */
function readPrivate(file) {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      return isPrivate(fs.fstatSync(fd)) ? fs.readFileSync(fd) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function save(script, dir, file, paths) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateDir(dir)) return;
    writeAtomic(file, script.createCachedData());
    writeAtomic(`${file}.paths`, paths.join('\n'));
    // Caches for older bundles or node versions are dead weight.
    const mine = path.basename(file);
    for (const f of fs.readdirSync(dir)) {
      if (f !== mine && f !== `${mine}.paths` && /^hook-.*\.v8(\.paths)?$/.test(f)) fs.rmSync(path.join(dir, f), { force: true });
    }
  } catch {
    /* a cache that cannot be written only costs time */
  }
}

exports.runCached = function runCached(file) {
  // One open: the cache key (size, mtime) describes exactly the source read.
  const fd = fs.openSync(file, 'r');
  let source, st;
  try {
    st = fs.fstatSync(fd);
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const dir = cacheDir(process.env);
  const cacheFile = dir && path.join(dir, `hook-${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}.v8`);
  const cachedData = cacheFile && privateDir(dir) ? readPrivate(cacheFile) : undefined;
  const covered = cachedData ? String(readPrivate(`${cacheFile}.paths`) ?? '').split('\n').filter(Boolean) : [];
  const used = new Set();
  globalThis.__rozCodePaths = used;
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  // Written at exit, after the hook ran, so lazily compiled functions are in it.
  if (cacheFile) {
    process.once('exit', () => {
      const fresh = !cachedData || script.cachedDataRejected;
      if (fresh || [...used].some((p) => !covered.includes(p))) save(script, dir, cacheFile, [...new Set([...(fresh ? [] : covered), ...used])]);
    });
  }
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
};
