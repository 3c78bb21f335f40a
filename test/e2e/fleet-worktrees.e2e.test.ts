// Issue 25, both pinned clients, scripted model: three agents made with
// `roz agent add` (worktrees beside the repository, branches roz/NAME) in a
// governed repository with a committed ledger, each run with `roz exec --
// claude -p` in its own worktree, all three at once. (The multi-agent
// supervisor is not wired to a launch yet; `roz exec` gives each agent its own
// settings and sandbox, which is what a supervisor's launch would give it.)
//  - agent a's Bash (a project script, so the sandbox is the wall, not roz's
//    command parser) writes its own worktree with a redirect, python, node,
//    mv and ln -s (the control), then the same into agent b's worktree and
//    into the main checkout: each fails; it commits on roz/a, and cannot
//    `git update-ref refs/heads/main`, write the shared `info/attributes` or
//    `config`. It is never reviewed: `roz agent merge a` is refused.
//  - agent b asks for a review (#roz), the real reviewer (roz:roz) records
//    COMPLETE with `roz decide`, then b commits more work: refused, changed
//    since its approval.
//  - agent c asks for a review, is approved and stays put: merged; main moves,
//    the main checkout follows, c's ledger records arrive in the base's
//    ledger (none lost, none twice) and the merge's record names the agent,
//    the decision and the tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bash, on, reply, say, write, type Matcher, type ParsedRequest, type Step } from './harness/fake-api.js';
import { reviewerScript, rozReviewerMarker, runRoz, spawnReviewer, type RozRun } from './harness/roz.js';
import { createWorkspace, PINNED_CLIENTS, ROZ_BIN, type CliResult, type Workspace } from './harness/workspace.js';

const RUN_TIMEOUT = 240_000;
const LEDGER = join('.orchestration', 'agent_trace.jsonl');
const AGENTS = ['a', 'b', 'c'] as const;
type Agent = (typeof AGENTS)[number];

const record = (note: string): string =>
  JSON.stringify({
    version: '0.1.0',
    id: `base-${note}-${Math.random().toString(16).slice(2)}`,
    timestamp: new Date().toISOString(),
    tool: { name: 'roz', version: '0.1.0' },
    files: [{ path: `src/${note}`, conversations: [] }],
    metadata: { 'dev.roz': { session_id: 'human', intent_id: 'INT-001', mutation_class: 'AST_REFACTOR', tool_name: 'Write' } },
  });

const ids = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { id: string }).id);

const bashRan =
  (re: RegExp): Matcher =>
  (req) =>
    req.toolResults.some((r) => r.toolName === 'Bash' && re.test(String(r.toolInput?.command ?? '')));

const bashText = (run: RozRun, role: 'main' | 'reviewer' = 'main'): string =>
  run.requests
    .filter((r) => r.role === role)
    .flatMap((r: ParsedRequest) => r.toolResults)
    .filter((r) => r.toolName === 'Bash')
    .map((r) => r.text)
    .join('\n');

function probes(text: string): Record<string, { code: number; out: string }> {
  const out: Record<string, { code: number; out: string }> = {};
  for (const m of text.matchAll(/^([A-Za-z-]+)=(\d+) ?(.*)$/gm)) out[m[1]!] = { code: Number(m[2]), out: m[3] ?? '' };
  return out;
}

const WRITE_WAYS = ['redirect', 'python', 'node', 'mv', 'ln'] as const;

/**
 * Agent a's script: every way of writing, into its own worktree's src/ (the
 * control), into agent b's worktree and into the main checkout; then git.
 * Run as `bash src/probe.sh`: roz runs a project script like `make` (the scope
 * audit sees what it changed), so what stops the writes here is the sandbox.
 */
function probeScript(b: string, main: string): string {
  return `#!/bin/bash
B=${JSON.stringify(b)}
M=${JSON.stringify(main)}
C="$(git rev-parse --path-format=absolute --git-common-dir)"
w_redirect() { echo x > "$1/evil-redirect.txt"; }
w_python() { python3 -c 'import sys; open(sys.argv[1], "w").write("x")' "$1/evil-python.txt"; }
w_node() { node -e 'require("fs").writeFileSync(process.argv[1], "x")' "$1/evil-node.txt"; }
w_mv() { echo x > "$TMPDIR/mv.$$" && mv "$TMPDIR/mv.$$" "$1/evil-mv.txt"; }
w_ln() { ln -s /etc/hostname "$1/evil-ln"; }
probe() { n=$1; shift; "$@" >"$TMPDIR/$n.out" 2>&1; echo "$n=$? $(tail -c 160 "$TMPDIR/$n.out" | tr '\\n' ' ')"; }
for w in ${WRITE_WAYS.join(' ')}; do
  probe "OWN-$w" "w_$w" "$PWD/src"
  probe "B-$w" "w_$w" "$B"
  probe "MAIN-$w" "w_$w" "$M"
done
probe MAIN-mvout mv "$M/README.md" "$TMPDIR/stolen-main.md"
probe B-mvout mv "$B/README.md" "$TMPDIR/stolen-b.md"
probe GIT-COMMIT sh -c 'echo a > src/a.txt && git add src/a.txt && git commit -q -m agent-a-work && git log -1 --format=%s'
probe GIT-UPDATE-REF-MAIN git update-ref refs/heads/main HEAD
probe GIT-INFO-ATTR sh -c 'mkdir -p "$1/info" && echo "* filter=evil" > "$1/info/attributes"' _ "$C"
probe GIT-CONFIG sh -c 'echo "[core]" >> "$1/config"' _ "$C"
echo ALL-PROBES-DONE
`;
}

/**
 * Both clients deny the shared `.git/config.lock` to their Bash sandbox; when
 * it is missing, bwrap mounts a placeholder there on the host for as long as
 * the command runs (observed: the file exists exactly while an agent's bwrap
 * runs, no git process about). Another agent's client that starts a command
 * then sees it, binds it as an existing file, and fails when it vanished
 * before bwrap mounted it: "bwrap: Can't find source path .../config.lock"
 * (seen on both clients with three agents at once). The command never ran, so
 * a model runs it again: so do these scripts, at most twice.
 */
const RETRY_BWRAP: Step = {
  name: 'retry-bwrap',
  when: on.toolResult('Bash', { error: true, match: /bwrap: Can't (?:find|get type of) source/ }),
  reply: (req) => {
    const failed = req.toolResults.find((r) => r.toolName === 'Bash' && r.isError);
    return reply(undefined, bash(String(failed?.toolInput?.command ?? 'true'), 'Run it again'));
  },
  times: 2,
};

const SELECT: Step = { name: 'select', when: on.start(), reply: reply('Selecting the intent.', bash('roz intent select INT-001', 'Select INT-001')) };

function scriptA(wt: string, b: string, main: string): Step[] {
  return [
    RETRY_BWRAP,
    SELECT,
    { name: 'write-probe', when: bashRan(/intent select/), reply: reply(undefined, write(join(wt, 'src', 'probe.sh'), probeScript(b, main))) },
    { name: 'probe', when: on.toolResult('Write'), reply: reply(undefined, bash('bash src/probe.sh', 'Run the project script')) },
    { name: 'done', when: bashRan(/probe\.sh/), reply: say('Done.') },
    { name: 'give-up', when: on.stopFeedback(), reply: say('Leaving it to the human.'), times: Infinity },
  ];
}

/** Write src/NAME.txt, commit it with the ledger, ask for a review; b then commits more work after the approval. */
function scriptReviewed(name: 'b' | 'c', wt: string): Step[] {
  const file = `src/${name}.txt`;
  const steps: Step[] = [
    RETRY_BWRAP,
    SELECT,
    { name: 'write', when: bashRan(/intent select/), reply: reply(undefined, write(join(wt, file), `${name} v1\n`)) },
    {
      name: 'commit',
      when: on.toolResult('Write'),
      reply: reply(undefined, bash(`git add -- ${file} ${LEDGER} && git commit -q -m ${name}-work && echo COMMITTED`, 'Commit the work')),
    },
    { name: 'claim-done', when: bashRan(/COMMITTED/), reply: say('Done.') },
    { name: 'spawn', when: on.stopFeedback(/SESSION_ID=/), reply: (req) => spawnReviewer(req, { background: false, summary: `Wrote ${file}.` }), times: 1 },
  ];
  if (name === 'b')
    steps.push(
      {
        name: 'more',
        when: on.toolResult('Agent'),
        reply: reply(undefined, bash(`echo 'b v2, after the approval' > ${file} && git commit -q -am b-more && echo MORE-COMMITTED`, 'More work')),
      },
      { name: 'done-again', when: bashRan(/MORE-COMMITTED/), reply: say('Done.') },
    );
  else steps.push({ name: 'reviewed', when: on.toolResult('Agent'), reply: say('Reviewed and approved.') });
  steps.push({ name: 'give-up', when: on.stopFeedback(), reply: say('Leaving it to the human.'), times: Infinity });
  return steps;
}

interface Fleet {
  ws: Workspace;
  main: string;
  common: string;
  wt: Record<Agent, string>;
  baseLedger: string[];
  mainBefore: string;
  runs: Record<Agent, RozRun>;
}

/** The built CLI in the main checkout; a longer timeout than rozCli's (a merge hashes every object again, and CI machines are loaded). */
function rozCli(ws: Workspace, args: string[]): CliResult {
  const r = spawnSync(process.execPath, [ROZ_BIN, ...args], { cwd: ws.repo, env: ws.env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

const git = (ws: Workspace, cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ws.env, encoding: 'utf8', stdio: 'pipe' }).trim();

describe.each(PINNED_CLIENTS)('a fleet of three agents under roz exec, client %s', (client) => {
  let f: Fleet;

  beforeAll(async () => {
    const ws = createWorkspace({ ROZ_MAX_BLOCKS: '1' });
    const main = ws.repo;
    try {
      mkdirSync(join(main, '.orchestration'));
      mkdirSync(join(main, 'src'));
      writeFileSync(
        join(main, '.orchestration', 'active_intents.yaml'),
        'active_intents:\n  - id: INT-001\n    name: Core\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n',
      );
      const baseLedger = [record('one'), record('two')];
      writeFileSync(join(main, LEDGER), `${baseLedger.join('\n')}\n`);
      writeFileSync(join(main, 'src', 'app.txt'), 'app\n');
      git(ws, main, 'add', '-A');
      git(ws, main, 'commit', '-q', '-m', 'intents, ledger and app');
      const wt = {} as Record<Agent, string>;
      for (const name of AGENTS) {
        const add = rozCli(ws, ['agent', 'add', name]);
        expect(add.code, add.stderr).toBe(0);
        wt[name] = join(ws.root, 'repo.roz', name);
        expect(add.stdout).toContain(wt[name]);
        expect(git(ws, wt[name], 'symbolic-ref', 'HEAD')).toBe(`refs/heads/roz/${name}`);
      }
      const mainBefore = git(ws, main, 'rev-parse', 'main');
      const at = (name: Agent): Workspace => ({ ...ws, repo: wt[name] });
      const marker = rozReviewerMarker();
      const [a, b, c] = await Promise.all([
        runRoz({ prompt: 'do the task', client, workspace: at('a'), exec: true, timeoutMs: RUN_TIMEOUT, scenario: { main: scriptA(wt.a, wt.b, main) } }),
        runRoz({
          prompt: '#roz write src/b.txt',
          client,
          workspace: at('b'),
          exec: true,
          timeoutMs: RUN_TIMEOUT,
          scenario: { reviewerMarker: marker, main: scriptReviewed('b', wt.b), reviewer: [RETRY_BWRAP, ...reviewerScript('COMPLETE', 'b.txt is right')] },
        }),
        runRoz({
          prompt: '#roz write src/c.txt',
          client,
          workspace: at('c'),
          exec: true,
          timeoutMs: RUN_TIMEOUT,
          scenario: { reviewerMarker: marker, main: scriptReviewed('c', wt.c), reviewer: [RETRY_BWRAP, ...reviewerScript('COMPLETE', 'c.txt is right')] },
        }),
      ]);
      f = { ws, main, common: join(main, '.git'), wt, baseLedger: baseLedger.map((l) => (JSON.parse(l) as { id: string }).id), mainBefore, runs: { a, b, c } };
    } catch (err) {
      ws.cleanup();
      throw err;
    }
  }, RUN_TIMEOUT + 60_000);

  afterAll(() => f?.ws.cleanup());

  test("agent a's sandboxed Bash writes its own worktree (control) but not agent b's worktree or the main checkout", () => {
    const run = f.runs.a;
    const why = run.why();
    expect(run.api.scriptErrors, why).toEqual([]);
    const p = probes(bashText(run));
    if (process.env.ROZ_E2E_VERBOSE) process.stderr.write(`[${client}] ${JSON.stringify(p, null, 1)}\n`);
    expect(bashText(run), why).toContain('ALL-PROBES-DONE');
    for (const w of WRITE_WAYS) {
      expect(`OWN-${w}: ${p[`OWN-${w}`]?.code} ${p[`OWN-${w}`]?.out}`, why).toMatch(/^\S+: 0 /);
      for (const where of ['B', 'MAIN']) expect(`${where}-${w}: ${p[`${where}-${w}`]?.code} ${p[`${where}-${w}`]?.out}`, why).toMatch(/^\S+: [1-9]\d* /);
    }
    for (const k of ['B-mvout', 'MAIN-mvout']) expect(`${k}: ${p[k]?.code} ${p[k]?.out}`, why).toMatch(/^\S+: [1-9]\d* /);
    // The control's files are there; nothing landed in b's worktree or the main checkout, and nothing left them.
    for (const name of ['evil-redirect.txt', 'evil-python.txt', 'evil-node.txt', 'evil-mv.txt', 'evil-ln']) {
      expect(lstatSync(join(f.wt.a, 'src', name), { throwIfNoEntry: false }), `own ${name}`).toBeTruthy();
      for (const dir of [f.wt.b, f.main]) expect(lstatSync(join(dir, name), { throwIfNoEntry: false }), join(dir, name)).toBeUndefined();
    }
    for (const dir of [f.wt.b, f.main]) expect(existsSync(join(dir, 'README.md')), dir).toBe(true);
  }, 60_000);

  test('agent a commits on roz/a, but cannot move main or write the shared info/attributes and config', () => {
    const run = f.runs.a;
    const why = run.why();
    const p = probes(bashText(run));
    expect(p['GIT-COMMIT'], why).toEqual({ code: 0, out: 'agent-a-work ' });
    expect(git(f.ws, f.main, 'log', '-1', '--format=%s', 'roz/a')).toBe('agent-a-work');
    for (const k of ['GIT-UPDATE-REF-MAIN', 'GIT-INFO-ATTR', 'GIT-CONFIG']) expect(`${k}: ${p[k]?.code} ${p[k]?.out}`, why).toMatch(/^\S+: [1-9]\d* /);
    expect(existsSync(join(f.common, 'info', 'attributes'))).toBe(false);
    expect(readFileSync(join(f.common, 'config'), 'utf8')).not.toMatch(/\[core\]\n$/);
  }, 60_000);

  test('roz agent merge: a (never reviewed) and b (changed after its approval) are refused; c (approved, unchanged) merges with its ledger records', () => {
    // b and c were reviewed COMPLETE by the real reviewer flow.
    for (const name of ['b', 'c'] as const) {
      const run = f.runs[name];
      const why = run.why();
      expect(run.api.scriptErrors, why).toEqual([]);
      // A decide that bwrap refused to start (RETRY_BWRAP) was already recorded
      // from its PreToolUse payload, so its retry records the same COMPLETE again.
      const kinds = run.state().review.decision_history.map((d) => d.kind);
      expect(kinds.length, why).toBeGreaterThan(0);
      expect(new Set(kinds), why).toEqual(new Set(['complete']));
    }
    expect(git(f.ws, f.main, 'log', '-1', '--format=%s', 'roz/b')).toBe('b-more');
    expect(git(f.ws, f.main, 'log', '-1', '--format=%s', 'roz/c')).toBe('c-work');
    expect(git(f.ws, f.main, 'rev-parse', 'main'), 'no agent moved main').toBe(f.mainBefore);

    const a = rozCli(f.ws, ['agent', 'merge', 'a']);
    expect(a.code, a.stderr).toBe(5);
    expect(a.stderr).toMatch(/never reviewed/);
    const b = rozCli(f.ws, ['agent', 'merge', 'b']);
    expect(b.code, b.stderr).toBe(5);
    expect(b.stderr).toMatch(/changed since its approval/);
    expect(git(f.ws, f.main, 'rev-parse', 'main')).toBe(f.mainBefore);

    // c's records: its branch's ledger and its worktree's, each beyond the base's.
    const cTracked = ids(git(f.ws, f.main, 'show', `roz/c:${LEDGER}`));
    const cWorking = ids(readFileSync(join(f.wt.c, LEDGER), 'utf8'));
    const cRecords = [...new Set([...cTracked, ...cWorking])].filter((id) => !f.baseLedger.includes(id));
    expect(cRecords.length, 'c wrote ledger records (its Write)').toBeGreaterThan(0);

    const c = rozCli(f.ws, ['agent', 'merge', 'c']);
    expect(c.code, `${c.stdout}\n${c.stderr}`).toBe(0);
    expect(c.stdout).toMatch(/merged roz\/c into main/);
    const mainAfter = git(f.ws, f.main, 'rev-parse', 'main');
    expect(mainAfter).not.toBe(f.mainBefore);
    expect(git(f.ws, f.main, 'merge-base', '--is-ancestor', 'roz/c', 'main')).toBe('');
    expect(readFileSync(join(f.main, 'src', 'c.txt'), 'utf8')).toBe('c v1\n');
    expect(existsSync(join(f.main, 'src', 'b.txt'))).toBe(false);

    // The base's ledger: its own records, then c's, each once, then the merge's record.
    const after = readFileSync(join(f.main, LEDGER), 'utf8');
    const got = ids(after);
    expect(got.slice(0, f.baseLedger.length)).toEqual(f.baseLedger);
    expect(new Set(got).size, 'no record twice').toBe(got.length);
    for (const id of cRecords) expect(got, `c's record ${id}`).toContain(id);
    expect(got).toHaveLength(f.baseLedger.length + cRecords.length + 1);
    const merge = JSON.parse(after.trim().split('\n').at(-1)!).metadata['dev.roz'];
    expect(merge).toMatchObject({
      tool_name: 'roz:merge',
      decided_by: userInfo().username,
      merge: { agent: 'c', branch: 'roz/c', base: 'main', review: { decision: 'COMPLETE', session_id: f.runs.c.sessionId } },
    });
    expect(merge.merge.tree).toBe(git(f.ws, f.main, 'rev-parse', 'main^{tree}'));
    // The tracked ledger in main holds no record twice either.
    const tracked = ids(git(f.ws, f.main, 'show', `main:${LEDGER}`));
    expect(new Set(tracked).size).toBe(tracked.length);
  }, 180_000);
});
