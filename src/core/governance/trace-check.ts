// The hook path's check of an Agent Trace record: the same rules as the zod
// schema (./trace-schema.ts), written out by hand. A hook that appends a
// record, or folds the few records appended since its last look into the
// intent map, used to load zod and build that schema first; at 10,000
// ledger records that was most of a governed PostToolUse's own cost (issue
// 23). The schema stays the reference (the CLI's readers use it), and
// test/governance/trace-check.test.ts holds both to the same verdict on
// valid records and on every single-field corruption of them. Pure.
import { AGENT_TRACE_VERSION, mutationClasses, ROZ_NAMESPACE } from './trace-record.js';

export interface TraceIssue {
  path: string;
  message: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
// zod's uuid() pattern (zod/v4/core/regexes.js).
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
// zod's iso.datetime() (UTC, seconds required, any fraction), as a small
// pattern and the calendar in code: zod's one expression for the date costs
// a hook more to compile than the whole rest of this check.
const DATETIME = /^(\d{4})-(\d\d)-(\d\d)T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDatetime(v: string): boolean {
  const m = DATETIME.exec(v);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS[month - 1]!);
}

const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/;
const CONTRIBUTOR_TYPES = new Set(['human', 'ai', 'mixed', 'unknown']);
const VCS_TYPES = new Set(['git', 'jj', 'hg', 'svn']);
const MUTATION_CLASSES: ReadonlySet<string> = new Set(mutationClasses);

/** What zod's url() accepts: anything the URL parser takes once trimmed. */
const isUrl = (v: string): boolean => URL.canParse(v.trim());

class Checker {
  readonly issues: TraceIssue[] = [];
  bad(path: string, message: string): false {
    this.issues.push({ path, message });
    return false;
  }
  obj(v: unknown, path: string, keys: readonly string[]): v is Obj {
    if (!isObj(v)) return this.bad(path, 'expected an object');
    for (const k of Object.keys(v)) if (!keys.includes(k)) this.bad(path, `unrecognized key ${JSON.stringify(k)}`);
    return true;
  }
  text(v: unknown, path: string): void {
    if (typeof v !== 'string') this.bad(path, 'expected a string');
    else if (v.length < 1) this.bad(path, 'must not be empty');
  }
  str(v: unknown, path: string, optional = true): void {
    if (v === undefined && optional) return;
    if (typeof v !== 'string') this.bad(path, 'expected a string');
  }
  strings(v: unknown, path: string): void {
    if (!Array.isArray(v)) return void this.bad(path, 'expected an array');
    v.forEach((s, i) => this.str(s, `${path}.${i}`, false));
  }
  line(v: unknown, path: string): boolean {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return this.bad(path, 'expected an integer');
    if (v < 1) return this.bad(path, 'must be at least 1');
    return true;
  }
  url(v: unknown, path: string): void {
    if (typeof v !== 'string') this.bad(path, 'expected a string');
    else if (!isUrl(v)) this.bad(path, 'invalid URL');
  }
  contributor(v: unknown, path: string): void {
    if (v === undefined) return;
    if (!this.obj(v, path, ['type', 'model_id'])) return;
    if (typeof v.type !== 'string' || !CONTRIBUTOR_TYPES.has(v.type)) this.bad(`${path}.type`, 'invalid contributor type');
    if (v.model_id !== undefined && (typeof v.model_id !== 'string' || v.model_id.length > 250))
      this.bad(`${path}.model_id`, 'expected a string of at most 250');
  }
  range(v: unknown, path: string): void {
    if (!this.obj(v, path, ['start_line', 'end_line', 'content_hash', 'contributor'])) return;
    const a = this.line(v.start_line, `${path}.start_line`);
    const b = this.line(v.end_line, `${path}.end_line`);
    if (v.content_hash !== undefined && (typeof v.content_hash !== 'string' || !CONTENT_HASH.test(v.content_hash)))
      this.bad(`${path}.content_hash`, 'expected sha256:<64 hex>');
    this.contributor(v.contributor, `${path}.contributor`);
    if (a && b && (v.end_line as number) < (v.start_line as number)) this.bad(path, 'end_line is before start_line');
  }
  conversation(v: unknown, path: string): void {
    if (!this.obj(v, path, ['url', 'contributor', 'ranges', 'related'])) return;
    if (v.url !== undefined) this.url(v.url, `${path}.url`);
    this.contributor(v.contributor, `${path}.contributor`);
    if (!Array.isArray(v.ranges)) this.bad(`${path}.ranges`, 'expected an array');
    else v.ranges.forEach((r, i) => this.range(r, `${path}.ranges.${i}`));
    if (v.related === undefined) return;
    if (!Array.isArray(v.related)) return void this.bad(`${path}.related`, 'expected an array');
    v.related.forEach((r, i) => {
      const p = `${path}.related.${i}`;
      if (!this.obj(r, p, ['type', 'url'])) return;
      this.text(r.type, `${p}.type`);
      this.url(r.url, `${p}.url`);
    });
  }
  stringLists(v: unknown, path: string): void {
    if (v === undefined) return;
    if (!isObj(v)) return void this.bad(path, 'expected an object');
    for (const [k, list] of Object.entries(v)) this.strings(list, `${path}.${k}`);
  }
  roz(v: unknown, path: string): void {
    const keys = [
      'session_id',
      'intent_id',
      'mutation_class',
      'tool_name',
      'tool_use_id',
      'agent_id',
      'symbols',
      'file_hashes',
      'unattributed',
      'scope_added',
      'decided_by',
      'merge',
      'approval',
    ];
    if (!this.obj(v, path, keys)) return;
    this.text(v.session_id, `${path}.session_id`);
    this.text(v.intent_id, `${path}.intent_id`);
    if (typeof v.mutation_class !== 'string' || !MUTATION_CLASSES.has(v.mutation_class)) this.bad(`${path}.mutation_class`, 'invalid mutation class');
    this.text(v.tool_name, `${path}.tool_name`);
    this.str(v.tool_use_id, `${path}.tool_use_id`);
    this.str(v.agent_id, `${path}.agent_id`);
    this.stringLists(v.symbols, `${path}.symbols`);
    if (v.file_hashes !== undefined) {
      if (!isObj(v.file_hashes)) this.bad(`${path}.file_hashes`, 'expected an object');
      else for (const [k, h] of Object.entries(v.file_hashes)) this.str(h, `${path}.file_hashes.${k}`, false);
    }
    if (v.unattributed !== undefined && typeof v.unattributed !== 'boolean') this.bad(`${path}.unattributed`, 'expected a boolean');
    if (v.scope_added !== undefined) this.strings(v.scope_added, `${path}.scope_added`);
    this.str(v.decided_by, `${path}.decided_by`);
    if (v.merge !== undefined) this.merge(v.merge, `${path}.merge`);
    if (v.approval !== undefined && this.obj(v.approval, `${path}.approval`, ['agent', 'branch', 'commit', 'tree']))
      for (const k of ['agent', 'branch', 'commit', 'tree']) this.text(v.approval[k], `${path}.approval.${k}`);
  }
  /** `roz agent merge`'s record (trace-schema.ts `merge`). */
  merge(v: unknown, path: string): void {
    const keys = ['agent', 'branch', 'base', 'strategy', 'commit', 'tree', 'reviewed_tree', 'review', 'ledger_records'];
    if (!this.obj(v, path, keys)) return;
    for (const k of ['agent', 'branch', 'base', 'commit', 'tree', 'reviewed_tree']) this.text(v[k], `${path}.${k}`);
    if (v.strategy !== 'fast-forward' && v.strategy !== 'merge') this.bad(`${path}.strategy`, 'expected "fast-forward" or "merge"');
    if (typeof v.ledger_records !== 'number' || !Number.isSafeInteger(v.ledger_records) || v.ledger_records < 0)
      this.bad(`${path}.ledger_records`, 'expected a whole number >= 0');
    const r = v.review;
    if (this.obj(r, `${path}.review`, ['decision', 'by', 'human', 'decided_at', 'session_id', 'summary'])) {
      if (r.decision !== 'COMPLETE') this.bad(`${path}.review.decision`, 'expected "COMPLETE"');
      if (r.by !== undefined && r.by !== 'human') this.bad(`${path}.review.by`, 'expected "human"');
      if (r.human !== undefined) this.text(r.human, `${path}.review.human`);
      this.text(r.decided_at, `${path}.review.decided_at`);
      this.text(r.session_id, `${path}.review.session_id`);
      this.str(r.summary, `${path}.review.summary`, false);
    }
  }
}

/** Every way `v` is not a trace record roz accepts; empty when it is one. */
export function traceRecordIssues(v: unknown): TraceIssue[] {
  const c = new Checker();
  if (!c.obj(v, '(root)', ['version', 'id', 'timestamp', 'vcs', 'tool', 'files', 'metadata'])) return c.issues;
  if (v.version !== AGENT_TRACE_VERSION) c.bad('version', `expected ${JSON.stringify(AGENT_TRACE_VERSION)}`);
  if (typeof v.id !== 'string' || !UUID.test(v.id)) c.bad('id', 'expected a UUID');
  if (typeof v.timestamp !== 'string' || !isDatetime(v.timestamp)) c.bad('timestamp', 'expected an ISO datetime (UTC)');
  if (v.vcs !== undefined && c.obj(v.vcs, 'vcs', ['type', 'revision'])) {
    if (typeof v.vcs.type !== 'string' || !VCS_TYPES.has(v.vcs.type)) c.bad('vcs.type', 'invalid vcs type');
    c.text(v.vcs.revision, 'vcs.revision');
  }
  if (c.obj(v.tool, 'tool', ['name', 'version'])) {
    c.text(v.tool.name, 'tool.name');
    c.text(v.tool.version, 'tool.version');
  }
  if (!Array.isArray(v.files)) c.bad('files', 'expected an array');
  else
    v.files.forEach((f, i) => {
      if (!c.obj(f, `files.${i}`, ['path', 'conversations'])) return;
      c.text(f.path, `files.${i}.path`);
      if (!Array.isArray(f.conversations)) c.bad(`files.${i}.conversations`, 'expected an array');
      else f.conversations.forEach((conv, j) => c.conversation(conv, `files.${i}.conversations.${j}`));
    });
  // Other tools' namespaces are anyone's; roz's own must be there and be roz's shape.
  if (!isObj(v.metadata)) c.bad('metadata', 'expected an object');
  else c.roz(v.metadata[ROZ_NAMESPACE], `metadata.${ROZ_NAMESPACE}`);
  return c.issues;
}

export function isTraceRecord(v: unknown): boolean {
  return traceRecordIssues(v).length === 0;
}
