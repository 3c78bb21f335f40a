// Workspaces for a describe block: each one made through the returned
// function is removed after its test. (Apart from workspace.ts, which the
// demo bundles and must not import vitest.)
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
