// Lessons learned: which commands are test runs, how a failure becomes one
// line in `.orchestration/CLAUDE.md`, and reading the latest lines back.

import { inertText, quotedText } from '../inert-text.js';

const PKG_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const RUNNERS = new Set(['vitest', 'jest', 'pytest', 'mocha', 'rspec', 'phpunit', 'tox', 'nox', 'ava', 'tap', 'karma', 'ctest']);
const SUB_TEST = new Set(['go', 'cargo', 'dotnet', 'mvn', 'gradle', './gradlew', 'deno', 'swift', 'mix', 'zig']);

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** Is this effective argv a test run (npm test, vitest, pytest, go test, cargo test, make test, …)? */
export function isTestArgv(argv: readonly string[]): boolean {
  const [a0, a1, a2] = argv.map((a) => a ?? '');
  if (!a0) return false;
  const name = base(a0);
  if (RUNNERS.has(name)) return true;
  if (PKG_MANAGERS.has(name)) {
    if (a1 === 'test' || a1 === 't' || a1?.startsWith('test:')) return true;
    if (a1 === 'run' && a2 !== undefined && /^test/.test(a2)) return true;
    if ((name === 'bun' || name === 'yarn' || name === 'pnpm') && a1 !== undefined && RUNNERS.has(a1)) return true;
    return a1 === 'exec' && a2 !== undefined && RUNNERS.has(a2);
  }
  if (name === 'npx' || name === 'pnpx' || name === 'bunx') return a1 !== undefined && RUNNERS.has(base(a1));
  if (/^python[0-9.]*$/.test(name)) return a1 === '-m' && a2 !== undefined && (a2 === 'pytest' || a2 === 'unittest' || a2 === 'tox');
  if (SUB_TEST.has(name) || SUB_TEST.has(a0)) return a1 === 'test' || (name === 'mvn' && a1 === 'verify');
  if (name === 'make' || name === 'just' || name === 'task') return argv.slice(1).some((a) => a === 'test' || a === 'check' || a.startsWith('test-'));
  return false;
}

/** The line of an error output worth keeping: the first that looks like a failure, else the first non-empty one. */
export function errorGist(error: string): string {
  const lines = error
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .filter((l) => !/^Exit code \d+$/.test(l));
  const hit = lines.find((l) => /\b(FAIL|Error|error|failed|Failed|AssertionError|panicked|expected)\b/.test(l)) ?? lines[0] ?? '';
  return hit.length > 200 ? `${hit.slice(0, 200)}…` : hit;
}

const oneLine = (s: string, n = 300): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

// Every part the agent (or a reviewer) chose is quoted (core/inert-text.ts):
// the line is read back by sessions, by humans, and must never run anywhere.
export function testFailureLesson(at: Date, intentId: string | null, command: string, error: string, sessionId: string): string {
  const gist = errorGist(error);
  return `- ${at.toISOString().slice(0, 16)}Z [${inertText(intentId ?? 'no intent')}] ${quotedText(oneLine(command, 120))} failed${gist ? `: ${quotedText(oneLine(gist))}` : ''} (session ${inertText(sessionId)})`;
}

export function reviewIssuesLesson(at: Date, intentId: string | null, summary: string, message: string | undefined, sessionId: string): string {
  return `- ${at.toISOString().slice(0, 16)}Z [${inertText(intentId ?? 'no intent')}] review found issues: ${quotedText(oneLine(summary))}${message ? ` — fix: ${quotedText(oneLine(message))}` : ''} (session ${inertText(sessionId)})`;
}

export const LESSONS_HEADING = '## Lessons Learned';

export function newLessonsFile(): string {
  return `# Shared brain\n\nMaintained by roz: lessons from failed test runs and review findings, fed back to every new session.\nHumans may add rules above the lessons heading.\n\n${LESSONS_HEADING}\n\n`;
}

/** The last `n` lesson lines (`- …` under the lessons heading, or anywhere when there is no heading). */
export function latestLessons(text: string, n = 5): string[] {
  const at = text.indexOf(LESSONS_HEADING);
  const body = at >= 0 ? text.slice(at + LESSONS_HEADING.length) : text;
  const end = body.search(/\n#{1,2} /);
  const section = end >= 0 ? body.slice(0, end) : body;
  return section
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .slice(-n);
}
