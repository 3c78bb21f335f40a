// What a run launches the client with, so that no program comes from a folder
// the agent can write: the plugin copy whose hooks and MCP server start the
// node roz runs on, and the client looked up on a PATH without the project.
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchPlugin, withNode } from '../../src/supervisor/launch/http-launch.js';
import { pathOutsideProject } from '../../src/store/executable-path.js';
import { tempDir } from '../helpers/temp-dir.js';

const repoPlugin = join(import.meta.dirname, '..', '..', 'plugin');

describe('programs by absolute path', () => {
  it('every hook command starts the given node, quoted; nothing else changes', () => {
    const hooks = JSON.parse(readFileSync(join(repoPlugin, 'hooks', 'hooks.json'), 'utf8')).hooks;
    const out = withNode(hooks, "/opt/my node's/bin/node");
    const commands = Object.values(out).flatMap((es) => es.flatMap((e) => e.hooks.map((h) => String(h.command))));
    expect(commands.length).toBeGreaterThan(5);
    for (const c of commands) {
      expect(c).toContain(`'/opt/my node'\\''s/bin/node' --verify-snapshot-checksum`);
      expect(c).not.toMatch(/(^|\s)node\s/);
    }
    // The matchers and timeouts are the plugin's.
    expect(Object.keys(out)).toEqual(Object.keys(hooks));
  });

  it('the launch copy: hooks.json and .mcp.json start process.execPath, other parts are the plugin', () => {
    const store = tempDir('roz-launch-');
    const dir = launchPlugin(repoPlugin, store, { commandOnly: false, node: process.execPath });
    const hooks = readFileSync(join(dir, 'hooks', 'hooks.json'), 'utf8');
    expect(hooks).toContain(`'${process.execPath}' --verify-snapshot-checksum`);
    const mcp = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8'));
    expect(mcp.mcpServers.roz.command).toBe(process.execPath);
    expect(mcp.mcpServers.roz.args).toEqual(['${CLAUDE_PLUGIN_ROOT}/bin/roz', 'mcp']);
    expect(realpathSync(join(dir, 'bin'))).toBe(realpathSync(join(repoPlugin, 'bin')));
    // Made once.
    expect(launchPlugin(repoPlugin, store, { commandOnly: false, node: process.execPath })).toBe(dir);
  });

  it("the client is looked up on PATH without the project's folders (npx puts node_modules/.bin first)", () => {
    const project = realpathSync(tempDir('roz-proj-'));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    const path = [join(project, 'node_modules', '.bin'), 'relative/bin', '', '/usr/local/bin', project, '/usr/bin'].join(':');
    expect(pathOutsideProject(path, project)).toBe('/usr/local/bin:/usr/bin');
  });
});
