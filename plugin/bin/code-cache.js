// Runs a CommonJS bundle with a V8 code cache, so a hook process skips parsing
// and compiling a few hundred KB of JavaScript on every tool call; the files
// it loads on demand (hook-<name>.cjs) run the same way, each cached apart. Node 22's
// module.enableCompileCache does this for modules; Node 20 has no built-in, so
// this is the same idea in one place: vm.Script with cachedData.
//
// The cache is code, so it is only read from a directory and file that this
// user owns and nobody else can write, and it is replaced atomically. V8 checks
// its own version, flags and the source length; the file name adds the file's
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

const privacy = new Map();
/** privateDir, asked once per process (the bundle and its on-demand files share the directory). */
function privateDirOnce(dir) {
  if (!privacy.has(dir)) privacy.set(dir, privateDir(dir));
  return privacy.get(dir);
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

function save(script, dir, name, file, paths) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateDir(dir)) return;
    writeAtomic(file, script.createCachedData());
    writeAtomic(`${file}.paths`, paths.join('\n'));
    // Caches of older builds of this file, or of other node versions, are dead weight.
    const mine = path.basename(file);
    const stale = new RegExp(`^${name}-v\\d.*\\.v8(\\.paths)?$`);
    for (const f of fs.readdirSync(dir)) {
      if (f !== mine && f !== `${mine}.paths` && stale.test(f)) fs.rmSync(path.join(dir, f), { force: true });
    }
  } catch {
    /* a cache that cannot be written only costs time */
  }
}

const loaded = new Map();

/**
 * Run a CommonJS file from its code cache and return its exports (once per
 * process, like require). Inside it, require('./hook-<name>.cjs') runs that
 * file the same way, with a cache of its own.
 */
exports.runCached = function runCached(file) {
  let mod = loaded.get(file);
  if (!mod) {
    mod = { exports: {}, filename: file, id: file, loaded: false };
    loaded.set(file, mod);
    compile(file).call(mod.exports, mod.exports, requireFor(file), mod, file, path.dirname(file));
    mod.loaded = true;
  }
  return mod.exports;
};

function requireFor(file) {
  const plain = createRequire(file);
  return (id) => (/^\.\/hook-[a-z-]+\.cjs$/.test(id) ? exports.runCached(path.join(path.dirname(file), id)) : plain(id));
}

function compile(file) {
  // One open: the cache key (size, mtime) describes exactly the source read.
  const fd = fs.openSync(file, 'r');
  let source, st;
  try {
    st = fs.fstatSync(fd);
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const name = path.basename(file, '.cjs');
  const dir = cacheDir(process.env);
  const cacheFile = dir && path.join(dir, `${name}-${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}.v8`);
  const cachedData = cacheFile && privateDirOnce(dir) ? readPrivate(cacheFile) : undefined;
  const covered = cachedData ? String(readPrivate(`${cacheFile}.paths`) ?? '').split('\n').filter(Boolean) : [];
  globalThis.__rozCodePaths ??= new Set();
  const used = globalThis.__rozCodePaths;
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  // Written at exit, after the hook ran, so lazily compiled functions are in it.
  if (cacheFile) {
    process.once('exit', () => {
      const fresh = !cachedData || script.cachedDataRejected;
      if (fresh || [...used].some((p) => !covered.includes(p))) save(script, dir, name, cacheFile, [...new Set([...(fresh ? [] : covered), ...used])]);
    });
  }
  return script.runInThisContext();
}
