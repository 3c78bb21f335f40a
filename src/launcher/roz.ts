// roz launcher, built to plugin/bin/roz (CommonJS: plugin/package.json says so,
// also in Claude Code's plugin cache; scripts/build.mjs writes it, and the
// built file is committed, so a checkout whose dist/ is missing or half built
// still has a launcher that fails closed for governance: see cannotStart). `roz hook ...` runs the lean hook bundle through a V8 code
// cache (no CLI parser, no UI); everything else loads the full CLI. One file:
// a second module for the cache cost every hook ~1 ms to resolve and load.
//
// The code cache: the hook bundle runs with V8 cached data, so a hook process
// skips parsing and compiling its JavaScript on every tool call; the files it
// loads on demand (hook-<name>.cjs) run the same way, each cached apart. Node
// 22's module.enableCompileCache does this for modules; Node 20 has no
// built-in, so this is the same idea in one place: vm.Script with cachedData.
//
// The cache is code that runs in every hook, so (docs/integrity.md, "code cache"):
// - It is keyed by the bundle's content: the build appends the sha256 of each
//   bundle as its last line (`//# roz-sha256=...`), and the cache file is named
//   by it, so bytecode of one build never runs against another's source (V8
//   itself checks only the source's length). The launcher reads that line
//   instead of hashing: node:crypto costs ~2-6 ms to load, a hash in
//   JavaScript ~1 ms per 150 KB; the line is free (the source is read anyway).
// - V8 verifies the cache's own checksum when node runs with
//   --verify-snapshot-checksum (hooks.json passes it): a corrupt cache is
//   rejected instead of crashing the process (exit 133/139). Caches written
//   without the flag have no checksum, so they are kept apart (no `-ck`).
// - A run that used cached data leaves a marker `<cache>.run-<pid>` until it
//   exits; a marker whose process is gone means that run died, and the cache is
//   discarded. A run that used cached data and exited without answering the
//   client discards it too, and the client still gets roz's fail-open answer
//   (governed writes denied), never nothing.
// - It is only read from a directory and file that this user owns and nobody
//   else can write, and replaced atomically. The same user can still write it:
//   only enforced mode (roz exec / roz run) stops the agent, whose sandbox
//   denies writes to the cache directory. In advisory mode a cache forged with
//   all of the above right runs the forger's code in the hook.
// Set ROZ_CODE_CACHE=off to disable, or to a directory to move it.
//
// V8 caches only functions that have run. The bundle names the lazily loaded
// parts a process used (globalThis.__rozCodePaths: "governance", "supervised");
// a sidecar file lists those the cache covers, and a process that used one it
// does not cover rewrites the cache, so it grows to what this user runs.
import { FILE_TOOLS } from '../core/file-tools.js';
import { launcherGlobals, type StdinHead } from '../core/launcher-globals.js';

// require, not import: esbuild keeps these calls as they are, so the built
// launcher loads exactly these builtins and no interop helpers.
const fs: typeof import('node:fs') = require('node:fs');
const path: typeof import('node:path') = require('node:path');
const vm: typeof import('node:vm') = require('node:vm');

const globals = launcherGlobals();

/** Caches written with V8's checksum (node --verify-snapshot-checksum) are named apart from those without. */
const CHECKSUMS = process.execArgv.includes('--verify-snapshot-checksum');

/**
 * The first bytes of the hook's stdin, read here (the bundle reads the rest:
 * src/cli/hook-entry.ts takes them from the launcher's globals) so that the
 * cache can be chosen by the call's tool. One read, as the bundle's own first
 * read would be: the client writes the event and closes the pipe as it starts
 * the hook. An error is handed over as it is, for the bundle to judge.
 */
function readStdinHead(event: string | undefined): StdinHead | null {
  // Never wait on a terminal (`roz hook --help` typed by a person), nor read for an option.
  if (!/^[a-z]/.test(event || '')) return null;
  try {
    const st = fs.fstatSync(0);
    if (!st.isFIFO() && !st.isFile() && !st.isSocket()) return null;
  } catch {
    return null;
  }
  const buf = Buffer.allocUnsafe(64 * 1024);
  try {
    return { buf, size: fs.readSync(0, buf, 0, buf.length, null), err: null };
  } catch (err) {
    return { buf, size: 0, err: err as NodeJS.ErrnoException };
  }
}

/**
 * Which caches this process uses: each hook event (`roz hook <event>`) has its
 * own, and a Bash call's are apart from other tools'. V8 deserializes a whole
 * cache, so one shared by every hook made a Bash PreToolUse read the bytecode
 * of Stop, PostToolUse, SessionStart and governed file writes too (352 KB
 * instead of 194 KB: 3-4M instructions of every hook, callgrind). Only a cache
 * name: a wrong guess costs time, never correctness (V8 checks every cache).
 */
function cacheKind(event: string | undefined, head: StdinHead | null): string {
  const kind = event && /^[a-z][a-z-]{0,40}$/.test(event) ? event : 'other';
  const tool = head && /"tool_name"\s*:\s*"([A-Za-z0-9_]{1,64})"/.exec(head.buf.toString('latin1', 0, Math.min(head.size, 4096)));
  return tool && tool[1] === 'Bash' ? `${kind}-bash` : kind;
}

let EVENT = 'other';
/** readStdinHead's result, kept for cannotStart's own look at the call. */
let stdinHead: StdinHead | null = null;

function cacheDir(env: NodeJS.ProcessEnv): string | null {
  const v = env.ROZ_CODE_CACHE;
  if (v === 'off' || v === '0' || v === 'false') return null;
  if (v) return v;
  return path.join(env.XDG_CACHE_HOME || path.join(env.HOME || (require('node:os') as typeof import('node:os')).homedir(), '.cache'), 'roz');
}

/** Owned by us and not writable by group or others. */
function isPrivate(st: import('node:fs').Stats): boolean {
  return (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o022) === 0;
}

function privateDir(dir: string): boolean {
  try {
    return isPrivate(fs.statSync(dir));
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** unlink, quietly: fs.rmSync would load its rimraf machinery (~1 ms) into every hook. */
function unlinkQuiet(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    /* gone already, or the directory is read-only: the next run will tell */
  }
}

function discard(file: string): void {
  unlinkQuiet(file);
  unlinkQuiet(`${file}.paths`);
}

/** Caches whose last run died (its marker outlived its process) are discarded. One readdir per process. */
function sweepCrashed(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const f of names) {
    // `<cache>.v8.run-<pid>`, by string search: the regular expression cost every hook
    // ~0.15M instructions (compiling it, running it on every file of the directory).
    const at = f.lastIndexOf('.v8.run-');
    if (at < 1) continue;
    const pid = Number(f.slice(at + 8));
    if (String(pid) !== f.slice(at + 8) || pid === process.pid || alive(pid)) continue;
    discard(path.join(dir, f.slice(0, at + 3)));
    unlinkQuiet(path.join(dir, f));
  }
}

const privacy = new Map<string, boolean>();
/** privateDir, asked once per process (the bundle and its on-demand files share the directory); sweeps crashed caches. */
function privateDirOnce(dir: string): boolean {
  let ok = privacy.get(dir);
  if (ok === undefined) {
    ok = privateDir(dir);
    privacy.set(dir, ok);
    if (ok) sweepCrashed(dir);
  }
  return ok;
}

/** The file's bytes if we own it, nobody else can write it and it is a regular file, else undefined. */
function readPrivate(file: string): Buffer | undefined {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      return st.isFile() && isPrivate(st) ? fs.readFileSync(fd) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function writeAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function save(script: import('node:vm').Script, dir: string, name: string, file: string, paths: string[]): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateDir(dir)) return;
    writeAtomic(file, script.createCachedData());
    writeAtomic(`${file}.paths`, paths.join('\n'));
    // Caches of older builds of this file, or of other node versions, are dead
    // weight; this build's caches of other events are kept.
    const build = path.basename(file).slice(0, -`${EVENT}.v8`.length);
    const stale = new RegExp(`^${name}-v\\d.*\\.v8(\\.paths)?$`);
    for (const f of fs.readdirSync(dir)) {
      if (!f.startsWith(build) && stale.test(f)) fs.rmSync(path.join(dir, f), { force: true });
    }
  } catch {
    /* a cache that cannot be written only costs time */
  }
}

/** The build's sha256 of a bundle, from its last line; null for a bundle without one (then it runs uncached). */
function contentKey(source: string): string | null {
  const m = /\/\/# roz-sha256=([0-9a-f]{64})\s*$/.exec(source.slice(-100));
  return m ? m[1]!.slice(0, 32) : null;
}

/** A CommonJS module as the bundles see it (module.exports, filename). */
interface LoadedModule {
  exports: unknown;
  filename: string;
  id: string;
  loaded: boolean;
}
/** One compile of a bundle against its cache: what settleCaches needs at exit. */
interface CacheRun {
  script: import('node:vm').Script;
  dir: string;
  name: string;
  cacheFile: string;
  cachedData: Buffer | undefined;
  covered: string[];
  marker: string | null;
}
type ModuleWrapper = (exports: unknown, require: (id: string) => unknown, module: LoadedModule, filename: string, dirname: string) => void;

const loaded = new Map<string, LoadedModule>();
/** Every cache this process compiled against: settled once, at exit. */
const runs: CacheRun[] = [];

/**
 * Run a CommonJS file from its code cache and return its exports (once per
 * process, like require). Inside it, require('./hook-<name>.cjs') runs that
 * file the same way, with a cache of its own.
 */
function runCached(file: string): unknown {
  let mod = loaded.get(file);
  if (!mod) {
    const fresh: LoadedModule = { exports: {}, filename: file, id: file, loaded: false };
    loaded.set(file, fresh);
    compile(file).call(fresh.exports, fresh.exports, requireFor(file), fresh, file, path.dirname(file));
    fresh.loaded = true;
    mod = fresh;
  }
  return mod.exports;
}

/** The bundles require node builtins and each other (hook-<name>.cjs); anything else goes through a real require. */
function requireFor(file: string): (id: string) => unknown {
  let plain: NodeJS.Require | undefined;
  return (id) => {
    if (/^\.\/hook-[a-z-]+\.cjs$/.test(id)) return runCached(path.join(path.dirname(file), id));
    if (id.startsWith('node:')) return process.getBuiltinModule(id);
    plain ??= (require('node:module') as typeof import('node:module')).createRequire(file);
    return plain(id);
  };
}

function compile(file: string): ModuleWrapper {
  // latin1: the build makes every hook bundle ASCII (scripts/build.mjs), and a copy is cheaper than utf8 decoding.
  const source = fs.readFileSync(file, 'latin1');
  const name = path.basename(file, '.cjs');
  const dir = cacheDir(process.env);
  const key = dir && contentKey(source);
  const cacheFile = dir && key ? path.join(dir, `${name}-${process.version}-${process.arch}-${key}${CHECKSUMS ? '-ck' : ''}.${EVENT}.v8`) : null;
  const cachedData = dir && cacheFile && privateDirOnce(dir) ? readPrivate(cacheFile) : undefined;
  const covered =
    cachedData && cacheFile
      ? String(readPrivate(`${cacheFile}.paths`) ?? '')
          .split('\n')
          .filter(Boolean)
      : [];
  globals.__rozCodePaths ??= new Set();
  let marker: string | null = null;
  if (cachedData) {
    // Before V8 sees the data: if it kills this process, the next run finds the marker.
    marker = `${cacheFile}.run-${process.pid}`;
    try {
      fs.writeFileSync(marker, '', { mode: 0o600 });
    } catch {
      marker = null;
    }
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  if (dir && cacheFile) runs.push({ script, dir, name, cacheFile, cachedData, covered, marker });
  return script.runInThisContext() as ModuleWrapper;
}

/**
 * At exit, after the hook ran (so lazily compiled functions are in the cache):
 * write caches that were missing, rejected or do not cover what ran; discard
 * the ones a run that did not answer used; remove this run's markers.
 */
function settleCaches(answered: boolean): void {
  const used = [...(globals.__rozCodePaths ?? [])];
  for (const r of runs) {
    const fresh = !r.cachedData || r.script.cachedDataRejected === true;
    if (!fresh && !answered) discard(r.cacheFile);
    else if (fresh || used.some((p) => !r.covered.includes(p)))
      save(r.script, r.dir, r.name, r.cacheFile, [...new Set([...(fresh ? [] : r.covered), ...used])]);
    if (r.marker) unlinkQuiet(r.marker);
  }
}

// ---- when the hook bundle cannot run (a broken or half-built install)

/** Tools that may change files: governance's own list (bundled in at build time), and Bash. */
const MAY_WRITE: ReadonlySet<string> = new Set([...FILE_TOOLS, 'Bash']);

/** Whether `cwd` is in a governed project, the way the engine finds one (cwd, git toplevel, CLAUDE_PROJECT_DIR). */
function governed(cwd: string, projectDir: string | undefined): boolean {
  const has = (dir: string) => fs.existsSync(path.join(dir, '.orchestration', 'active_intents.yaml'));
  let top: string | null = null;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      top = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  return [cwd, top, projectDir].some((d) => d && has(d));
}

/** The part of a hook's input cannotStart looks at. */
interface HookCall {
  tool_name?: unknown;
  cwd?: unknown;
}

/** The hook's stdin, when it is a pipe or file (never wait on a terminal); null when unreadable or already consumed. */
function readInput(): HookCall | null {
  try {
    const st = fs.fstatSync(0);
    if (!st.isFIFO() && !st.isFile() && !st.isSocket()) return null;
    // What the launcher read first to choose its cache (readStdinHead), then the rest.
    const head = stdinHead && !stdinHead.err ? stdinHead.buf.subarray(0, stdinHead.size) : Buffer.alloc(0);
    const input: unknown = JSON.parse(Buffer.concat([head, fs.readFileSync(0)]).toString('utf8'));
    return input !== null && typeof input === 'object' ? (input as HookCall) : null;
  } catch {
    return null;
  }
}

type Verdict = { kind: 'none' } | { kind: 'deny'; code: string; reason: string };
/** What dist/render.cjs exports (src/engine/render-entry.ts). */
interface Renderer {
  hookCliNames: Record<string, string | undefined>;
  renderOutput(event: string, verdict: Verdict, warnings: string[]): string;
}

/**
 * The client's JSON for `verdict`, by engine/output.ts (dist/render.cjs): the
 * one renderer. Only if even that file cannot load (a half-built install) is
 * the fail-open answer written here by hand, in the same shape.
 */
function render(verdict: Verdict, warnings: string[]): string {
  try {
    const r = require(path.join(__dirname, '..', 'dist', 'render.cjs')) as Renderer;
    const event = r.hookCliNames[process.argv[3] ?? ''];
    if (event) return r.renderOutput(event, verdict, warnings);
  } catch {
    /* below */
  }
  if (verdict.kind === 'deny') {
    return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `[${verdict.code}] ${verdict.reason}` }, systemMessage: warnings.join('\n') })}\n`;
  }
  return `${JSON.stringify({ systemMessage: warnings.join('\n') })}\n`;
}

/**
 * Never wedge the user: the review gate fails open, with a message. Intent
 * governance must not: a pre-tool-use that may change files in a governed
 * project is denied, as the engine would deny it when it cannot decide.
 * Written with writeSync: this also runs in an exit handler.
 */
function cannotStart(why: string): void {
  try {
    fs.writeSync(2, `roz: cannot run the hook (${why}). Run \`npm run build\` in the roz checkout if it persists.\n`);
  } catch {
    /* nowhere to report */
  }
  const warning = `roz: hook failed open: cannot start (${why})`;
  let verdict: Verdict = { kind: 'none' };
  if (process.argv[3] === 'pre-tool-use') {
    const input = readInput();
    if (
      input &&
      typeof input.tool_name === 'string' &&
      MAY_WRITE.has(input.tool_name) &&
      typeof input.cwd === 'string' &&
      governed(input.cwd, process.env.CLAUDE_PROJECT_DIR)
    ) {
      verdict = {
        kind: 'deny',
        code: 'HOOK_ERROR',
        reason: `roz: intent governance cannot start (${why}), so file changes are refused until roz is repaired. Tell the human; read-only work can continue.`,
      };
    }
  }
  try {
    fs.writeSync(1, render(verdict, verdict.kind === 'deny' ? [] : [warning]));
  } catch {
    /* the client went away */
  }
  process.exitCode = 0;
}

// ---- the launcher (last: everything above is initialised by now)

if (process.argv[2] === 'hook') {
  // hooks.json starts node with NODE_EXTRA_CA_CERTS emptied (node parses that
  // whole CA bundle at startup, 38 ms here, and a hook opens no TLS
  // connection) and the user's value in ROZ_NODE_EXTRA_CA_CERTS: put it back
  // for what the hook starts (`roz otel flush` exports over https).
  if ('ROZ_NODE_EXTRA_CA_CERTS' in process.env) {
    const ca = process.env.ROZ_NODE_EXTRA_CA_CERTS;
    delete process.env.ROZ_NODE_EXTRA_CA_CERTS;
    if (ca) process.env.NODE_EXTRA_CA_CERTS = ca;
    else delete process.env.NODE_EXTRA_CA_CERTS;
  }
  let reported = false;
  // The hook bundle sets __rozHookAnswered as it answers the client. A run that
  // exits without it (a cache that ran other code, a crash in JavaScript) still
  // answers, and the caches it used are discarded.
  process.on('exit', (code) => {
    const answered = globals.__rozHookAnswered === true;
    if (!answered && !reported)
      cannotStart(`the hook exited (code ${code}) without answering${runs.some((r) => r.cachedData) ? '; its code cache was discarded' : ''}`);
    settleCaches(answered);
  });
  try {
    stdinHead = readStdinHead(process.argv[3]);
    globals.__rozStdinHead = stdinHead;
    EVENT = cacheKind(process.argv[3], stdinHead);
    runCached(path.join(__dirname, '..', 'dist', 'hook.cjs'));
  } catch (err) {
    reported = true;
    cannotStart((err as Error | undefined)?.message || String(err));
  }
} else {
  try {
    // Node 22.1+; the types roz builds against predate it.
    (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  } catch {
    /* Node 20: no compile cache, the CLI starts a little slower */
  }
  // A path esbuild leaves alone (a literal would be bundled): the CLI bundle beside the hook's.
  const cli = '../dist/cli.mjs';
  import(cli).catch((err: Error | undefined) => {
    process.stderr.write(`roz: cannot start (${err?.message}). Run \`npm run build\` in the roz checkout.\n`);
    process.exit(1);
  });
}
