// plugin/bin/roz is built from src/launcher/roz.ts and committed as built (a
// checkout whose dist/ is missing still has a launcher, and it fails closed).
// A committed launcher that is not the source's build would run code nobody
// reviewed as TypeScript: this builds the source again and compares.
import { build } from 'esbuild';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { launcherOptions } from '../../scripts/esbuild-shared.mjs';
import { FILE_TOOLS } from '../../src/core/file-tools.js';

const repo = join(import.meta.dirname, '..', '..');
const launcher = join(repo, 'plugin', 'bin', 'roz');

it('the committed plugin/bin/roz is the build of src/launcher/roz.ts (run `npm run build` and commit it)', async () => {
  const r = await build({ ...launcherOptions, absWorkingDir: repo, write: false, outfile: launcher });
  const built = r.outputFiles[0]!.text;
  expect(readFileSync(launcher, 'utf8')).toBe(built);
  expect(statSync(launcher).mode & 0o111, 'executable').toBe(0o111);
});

it("the launcher's tools that may change files are governance's own, and Bash", () => {
  const text = readFileSync(launcher, 'utf8');
  const listed = /var FILE_TOOLS = (?:\/\* @__PURE__ \*\/ )?new Set\((\[[^\]]*\])\)/.exec(text)?.[1];
  expect(JSON.parse(listed ?? '[]')).toEqual([...FILE_TOOLS]);
  expect(text).toMatch(/new Set\(\[\.\.\.FILE_TOOLS, "Bash"\]\)/);
});
