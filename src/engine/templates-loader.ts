// Finds block templates: the user's own in <store>/templates first, then the
// plugin's. A missing file is null; the core then falls back to its default.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KiB, readRegularText } from '../store/regular-file.js';

/** The plugin directory: CLAUDE_PLUGIN_ROOT when the client set it, else next to the bundle. */
export function pluginRoot(env: Record<string, string | undefined>): string {
  if (env.CLAUDE_PLUGIN_ROOT) return env.CLAUDE_PLUGIN_ROOT;
  // Bundled as plugin/dist/*.mjs; in tests from src/engine/*.ts.
  const here = fileURLToPath(new URL('.', import.meta.url));
  return here.includes(`${'/'}src${'/'}`) ? join(here, '..', '..', 'plugin') : join(here, '..');
}

export function templateLoader(storeRoot: string, env: Record<string, string | undefined>): (id: string) => string | null {
  const dirs = [join(storeRoot, 'templates'), join(pluginRoot(env), 'templates')];
  return (id: string) => {
    if (!/^[\w.-]+$/.test(id)) return null;
    for (const dir of dirs) {
      try {
        return readRegularText(join(dir, `block-${id}.md`), 256 * KiB);
      } catch {
        /* try the next place */
      }
    }
    return null;
  };
}
