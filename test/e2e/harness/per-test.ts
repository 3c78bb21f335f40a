// Per-test teardown for a describe block: workspaces made through
// workspacePerTest's function, and whatever else a test pushes onto
// cleanupsPerTest's list (a fake API's close, a workspace's cleanup), undone
// after its test. (Apart from workspace.ts, which the demo bundles and must
// not import vitest.)
import { afterEach } from 'vitest';
import { createWorkspace, type Workspace } from './workspace.js';

export function workspacePerTest(): (extraEnv?: Record<string, string>) => Workspace {
  const made: Workspace[] = [];
  afterEach(() => made.splice(0).forEach((ws) => ws.cleanup()));
  return (extraEnv = {}) => {
    const ws = createWorkspace(extraEnv);
    made.push(ws);
    return ws;
  };
}

/** What to undo after each test of the describe block that calls it: pushed closers run in order, each awaited. */
export function cleanupsPerTest(): { push(...closers: Array<() => unknown>): void } {
  const closers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });
  return { push: (...more) => void closers.push(...more) };
}
