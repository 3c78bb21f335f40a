// Ledger records (Agent Trace): what a successful mutation changed, with
// ranges, hashes, symbols and the intent, and the audit's unattributed
// changes. Appended to .orchestration/agent_trace.jsonl; the map follows.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { HookInput } from '../../core/hook-input.js';
import type { SessionState } from '../../core/session-state.js';
import { result, type PolicyResult } from '../../core/verdict.js';
import { classifyFileChange, classifyRecord } from '../../core/governance/classify.js';
import { FILE_TOOLS, mutationOf, PATCH_TOOLS } from '../../core/governance/mutations.js';
import type { ProjectView } from '../../core/governance/policy.js';
import { changedRanges, rangeHash, splitLines } from '../../core/governance/ranges.js';
import { isInside, resolvePath, type PathContext } from '../../core/governance/scope.js';
import { governanceOf, rememberFile, type GovernanceState } from '../../core/governance/state.js';
import { symbolsTouched } from '../../core/governance/symbols.js';
import { remember } from '../../core/governance/audit-state.js';
import {
  intentUrn,
  normaliseModelId,
  ROZ_NAMESPACE,
  traceHeader,
  type MutationClass,
  type TraceHeader,
  type TraceRecord,
} from '../../core/governance/trace-record.js';
import { rethrowNotLoaded } from '../../core/on-demand.js';
import { sha256 } from '../../core/sha256.js';
import { rozVersion } from '../../core/version.js';
import { clientModelId, hookClient } from '../../core/clients.js';
import { gitHead } from '../../store/git-head.js';
import { intentMapCacheDir, refreshIntentMap } from '../../store/intent-map-file.js';
import { appendLedger } from '../../store/ledger.js';
import { ledgerLineHash } from '../../core/fleet/ledger-union.js';
import { assertOrchestrationTrusted } from './orchestration-trust.js';
import { orchestrationPaths } from '../../store/orchestration.js';
import { randomUuid } from '../../store/random-uuid.js';
import { writeReport } from '../shell-view.js';
import { type GovernanceDeps, hashFile, loadProject, projectFor, readText } from './project.js';

/** What every Agent Trace record roz writes starts with (core's traceHeader), at this checkout's HEAD. */
function recordHeader(root: string, deps: GovernanceDeps): TraceHeader {
  return traceHeader(randomUuid(), deps.now, gitHead(root), rozVersion);
}

/** The record's `LedgerAppended` note: its id and the hash of its line, kept in roz's store (core/fleet/ledger-union.ts). */
export interface LedgerAppendedNote {
  type: 'LedgerAppended';
  id: string;
  sha256: string;
  [key: string]: unknown;
}

export function appendUnattributed(
  state: SessionState,
  gov: GovernanceState,
  root: string,
  files: readonly string[],
  deps: GovernanceDeps,
): LedgerAppendedNote {
  const record: TraceRecord = {
    ...recordHeader(root, deps),
    files: files.map((path) => ({
      path,
      conversations: [
        { contributor: { type: 'unknown' as const }, ranges: [], ...(gov.intent_id ? { related: [{ type: 'intent', url: intentUrn(gov.intent_id) }] } : {}) },
      ],
    })),
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: state.session_id,
        intent_id: gov.intent_id!,
        mutation_class: 'INTENT_EVOLUTION',
        tool_name: 'unknown',
        unattributed: true,
      },
    },
  };
  assertOrchestrationTrusted(state, root, 'the ledger');
  const hash = ledgerLineHash(appendLedger(root, orchestrationPaths(root).ledger, record));
  gov.map_stale = true;
  return { type: 'LedgerAppended', id: record.id, sha256: hash, intent_id: gov.intent_id, files: [...files], unattributed: true };
}

/**
 * intent_map.md brought up to the ledger at the end of a turn (Stop), when
 * this session appended to the ledger since: once a turn instead of after
 * every change. Folding the new records into the cached tally, rendering
 * and writing the map was a quarter of a governed PostToolUse's own cost at
 * 10,000 records (issue 23); the ledger itself is still written at once.
 * Returns a warning when the map could not be written.
 */
export function refreshStaleMap(state: SessionState, cwd: string, deps: GovernanceDeps): string | null {
  const gov = governanceOf(state);
  if (!gov.map_stale) return null;
  // Cleared first: an update that throws (NotLoaded, to load the parser) writes no state and runs again.
  gov.map_stale = false;
  const root = projectFor(gov, cwd, deps);
  if (!root) return null;
  try {
    const project = loadProject(root, deps);
    refreshIntentMap(root, project.intents.ok ? project.intents.intents : [], intentMapCacheDir(deps.storeRoot));
    return null;
  } catch (err) {
    rethrowNotLoaded(err);
    return `roz: could not update .orchestration/intent_map.md (${(err as Error).message})`;
  }
}

function modelFromTranscript(transcript: string | undefined | null): string | null {
  if (!transcript) return null;
  let fd: number | null = null;
  try {
    fd = openSync(transcript, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const size = st.size;
    // The tail holds the latest assistant message; 256 KiB keeps this under a millisecond.
    const len = Math.min(size, 256 * 1024);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const all = [...buf.toString('utf8').matchAll(/"model"\s*:\s*"([^"]{1,200})"/g)];
    return all.at(-1)?.[1] ?? null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function recordMutation(
  gov: GovernanceState,
  state: SessionState,
  input: HookInput<'PostToolUse'>,
  project: ProjectView,
  paths: PathContext,
  root: string,
  deps: GovernanceDeps,
): PolicyResult {
  const mutation = mutationOf(input, deps.writeTargets ?? writeReport);
  if (!mutation) return result();
  const response = (input.tool_response ?? {}) as Record<string, unknown>;
  const isFileTool = FILE_TOOLS.has(mutation.tool);
  const files: TraceRecord['files'] = [];
  const classes: MutationClass[] = [];
  const symbols: Record<string, string[]> = {};
  const fileHashes: Record<string, string> = {};
  const client = hookClient(deps.env);
  const model = gov.model_id ?? modelFromTranscript(input.transcript_path ?? state.transcript_path);
  const modelId = normaliseModelId(client.id === 'claude' || !model ? model : clientModelId(client, model));
  const conversationBase = {
    ...(input.transcript_path || state.transcript_path ? { url: pathToFileURL((input.transcript_path ?? state.transcript_path)!).href } : {}),
    contributor: { type: 'ai' as const, ...(modelId ? { model_id: modelId } : {}) },
  };

  for (const target of mutation.targets) {
    // "Anything under here" (`git stash`): the Stop audit records what really changed.
    if (target.tree) continue;
    const p = resolvePath(target.path, paths);
    // Judged at PreToolUse (in scope, or let through by a human): not the audit's business.
    if (p.rel !== null && gov.audit) remember(gov.audit, [p.rel]);
    if (p.rel === null || project.ignored(p) || isInside(p.real, project.orchestration)) {
      // Outside the project, or outside governance: keep the stale-file memory right, record nothing.
      const h = hashFile(p.real);
      if (h && gov.files[p.real]) rememberFile(gov, p.real, h, 'write', deps.now);
      continue;
    }
    const after = readText(p.real);
    const before = isFileTool && typeof response.originalFile === 'string' ? response.originalFile : null;
    if (after !== null) {
      const h = sha256(after);
      // Bash writes refresh only files the agent already holds, so a later Edit is not called stale by its own write;
      // a patch, like a file tool, makes the agent hold what it wrote.
      if (isFileTool || PATCH_TOOLS.has(mutation.tool) || gov.files[p.real]) rememberFile(gov, p.real, h, 'write', deps.now);
      fileHashes[p.rel] = `sha256:${h}`;
    } else if (PATCH_TOOLS.has(mutation.tool)) {
      // Deleted (or moved away) by its own patch: nothing left to be stale against.
      delete gov.files[p.real];
    }
    const patch = isFileTool ? response.structuredPatch : undefined;
    const ranges = after === null ? [] : changedRanges(before, after, patch);
    const lines = after === null ? [] : splitLines(after);
    files.push({
      path: p.rel,
      conversations: [
        {
          ...conversationBase,
          ranges: ranges.map((r) => ({ ...r, content_hash: rangeHash(lines, r.start_line, r.end_line) })),
          ...(gov.intent_id ? { related: [{ type: 'intent', url: intentUrn(gov.intent_id) }] } : {}),
        },
      ],
    });
    classes.push(isFileTool ? classifyFileChange(p.rel, before, after) : 'INTENT_EVOLUTION');
    const touched = after !== null ? symbolsTouched(p.rel, after, ranges) : null;
    if (touched && touched.length) symbols[p.rel] = touched;
  }

  // Nothing governed changed (ignored paths only), or the session has no intent (governance let an ignored write through).
  if (files.length === 0 || !gov.intent_id) return result();
  const record: TraceRecord = {
    ...recordHeader(root, deps),
    files,
    metadata: {
      [ROZ_NAMESPACE]: {
        session_id: state.session_id,
        intent_id: gov.intent_id,
        mutation_class: classifyRecord(classes),
        tool_name: mutation.tool,
        client: client.id,
        ...(input.tool_use_id ? { tool_use_id: input.tool_use_id } : {}),
        ...(input.agent_id ? { agent_id: input.agent_id } : {}),
        ...(Object.keys(symbols).length ? { symbols } : {}),
        ...(Object.keys(fileHashes).length ? { file_hashes: fileHashes } : {}),
      },
    },
  };
  assertOrchestrationTrusted(state, root, 'the ledger');
  const hash = ledgerLineHash(appendLedger(root, orchestrationPaths(root).ledger, record));
  gov.mutations += 1;
  // intent_map.md follows at the end of the turn (refreshStaleMap), not after every change.
  gov.map_stale = true;
  // The line's hash goes to roz's store with the note: what a merge checks a branch's ledger against.
  return result(undefined, [{ type: 'LedgerAppended', id: record.id, sha256: hash, intent_id: gov.intent_id, files: files.map((f) => f.path) }]);
}
