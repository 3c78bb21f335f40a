// The roz commands that skip loading the on-demand modules (cli/main.ts LOADS_NOTHING) must not be
// able to reach code that needs one: a path that did would fail with "the X module is needed but
// not loaded yet". esbuild follows every import of each listed module (static and dynamic), and
// none may reach a file that calls onDemand or throws NotLoaded. Each listed command's action must
// import the module the list names.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, LOADS_NOTHING } from '../../src/cli/main.js';
import { repoRoot } from '../helpers/hooks.js';

const SRC = join(repoRoot, 'src');

/** Every src file that asks for an on-demand module (the loader itself aside). */
function onDemandCallers(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && p !== join(SRC, 'core', 'on-demand.ts') && /\bonDemand\(|new NotLoaded\(/.test(readFileSync(p, 'utf8')))
        out.push(`src/${p.slice(SRC.length + 1)}`);
    }
  };
  walk(SRC);
  return out;
}

/** Which of `targets` each entry module can reach through any import. */
async function reach(modules: string[], targets: string[]): Promise<Map<string, string[]>> {
  const entries = modules.map((m) => `src/cli/${m}.ts`);
  const r = await build({
    absWorkingDir: repoRoot,
    entryPoints: entries,
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    write: false,
    metafile: true,
    outdir: 'out',
    external: ['@lydell/node-pty', 'react-devtools-core'],
    logLevel: 'silent',
  });
  const inputs = r.metafile.inputs;
  const found = new Map<string, string[]>();
  for (const entry of entries) {
    const seen = new Set([entry]);
    const queue = [entry];
    while (queue.length > 0) for (const im of inputs[queue.shift()!]?.imports ?? []) if (!seen.has(im.path)) seen.add(im.path), queue.push(im.path);
    found.set(
      entry.slice('src/cli/'.length, -'.ts'.length),
      targets.filter((t) => seen.has(t)),
    );
  }
  return found;
}

describe('commands that load no on-demand module', () => {
  let callers: string[];
  beforeAll(() => {
    callers = onDemandCallers();
  });

  it('finds the callers (the check can fail: intent and run reach them)', async () => {
    expect(callers).toEqual(expect.arrayContaining(['src/store/ledger.ts', 'src/store/intents-cache.ts', 'src/engine/snapshots.ts']));
    const control = await reach(['commands/intent', 'commands/run'], callers);
    expect(control.get('commands/intent')).toContain('src/store/intents-cache.ts');
    expect(control.get('commands/run')!.length).toBeGreaterThan(2);
  });

  it('none of their modules can reach one', async () => {
    const modules = [...new Set(Object.values(LOADS_NOTHING))];
    const found = await reach(modules, callers);
    for (const m of modules) expect(found.get(m), `${m} reaches a caller of onDemand`).toEqual([]);
  });

  it("each is a command of roz's, whose action imports the module named", () => {
    const program = buildProgram();
    const sources = readdirSync(join(SRC, 'cli', 'program')).map((f) => readFileSync(join(SRC, 'cli', 'program', f), 'utf8'));
    for (const [path, module] of Object.entries(LOADS_NOTHING)) {
      const words = path.split(' ');
      let cmd = program;
      for (const w of words) {
        const next = cmd.commands.find((c) => c.name() === w);
        expect(next, `roz ${path} is not a command`).toBeDefined();
        cmd = next!;
      }
      // The registration: .command('NAME') up to the next .command(, with the action's import(s).
      const last = words.at(-1)!;
      const imports = sources.flatMap((s) =>
        [...s.matchAll(new RegExp(`\\.command\\('${last}(?: <[a-z]+>)?'\\)([\\s\\S]*?)(?=\\.command\\(|$)`, 'g'))].flatMap((m) =>
          [...m[1]!.matchAll(/import\('\.\.\/(commands\/[a-z-]+)\.js'\)/g)].map((i) => i[1]),
        ),
      );
      expect(imports, `roz ${path}'s action imports`).toContain(module);
      expect(new Set(imports), `roz ${path}'s action imports only ${module}`).toEqual(new Set([module]));
    }
  });
});
