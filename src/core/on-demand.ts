// Most of the hook's code serves only some hooks: yaml and zod parse
// active_intents.yaml when its text has no cached parse and check a record
// before it joins the ledger; the shell parser reads Bash commands. Policies
// run synchronously inside the session lock, so they cannot import there:
// they take the module from here, and if it is not loaded yet `onDemand`
// throws NotLoaded; the engine loads it and runs the update again (an update
// that throws writes nothing).
// In the hook bundle each module is a file of its own with its own code cache
// (scripts/build.mjs), so what the common path loads stays small.
type Modules = {
  'intents-parser': typeof import('./governance/intents-parser.js');
  'trace-schema': typeof import('./governance/trace-schema.js');
  shell: typeof import('./shell/index.js');
  /** Codex's apply_patch text (core/clients.ts): only hooks of a patch tool read it. */
  'apply-patch': typeof import('./apply-patch.js');
  effects: typeof import('./shell/effects.js');
};
export type OnDemandModule = keyof Modules;

// Literal specifiers: the hook build maps each to its own file.
const importers: { [K in OnDemandModule]: () => Promise<Modules[K]> } = {
  'intents-parser': () => import('./governance/intents-parser.js'),
  'trace-schema': () => import('./governance/trace-schema.js'),
  shell: () => import('./shell/index.js'),
  'apply-patch': () => import('./apply-patch.js'),
  // The effects lexicon and classes (issue 30): only for commands whose words could carry an effect.
  effects: () => import('./shell/effects.js'),
};

const loaded: Partial<Modules> = {};
const failed: Partial<Record<OnDemandModule, Error>> = {};

/** Thrown by `onDemand` for a module not loaded yet; the caller loads it and retries. */
export class NotLoaded extends Error {
  override name = 'NotLoaded';
  /** 'tree-snapshot': a store module the engine loads itself (engine/snapshots.ts). */
  constructor(readonly module: OnDemandModule | 'tree-snapshot') {
    super(`roz: the ${module} module is needed but not loaded yet`);
  }
}

export function onDemand<K extends OnDemandModule>(name: K): Modules[K] {
  const m = loaded[name];
  if (m) return m;
  const err = failed[name];
  // An ordinary error from here on: governance turns it into a denial (fail closed).
  if (err) throw new Error(`roz cannot load its ${name} module (${err.message})`);
  throw new NotLoaded(name);
}

/** Load a module; never throws (a failure is reported by the next `onDemand`). */
export async function loadOnDemand(name: OnDemandModule): Promise<void> {
  if (loaded[name] || failed[name]) return;
  try {
    (loaded as Record<OnDemandModule, unknown>)[name] = await importers[name]();
  } catch (err) {
    failed[name] = err instanceof Error ? err : new Error(String(err));
  }
  // Two hook files that cannot import each other: the shell classifier gets the effects module here.
  if (loaded.shell && loaded.effects) loaded.shell.installEffects(loaded.effects);
}

/** Loaders of modules outside core (engine/snapshots.ts registers the store's tree-snapshot): loadAllOnDemand runs them too. */
const outsideLoaders: Array<() => Promise<void>> = [];
export function registerOnDemandLoader(load: () => Promise<void>): void {
  outsideLoaders.push(load);
}

/** For long-lived processes (CLI, MCP server, supervisor): everything, up front. */
export async function loadAllOnDemand(): Promise<void> {
  await Promise.all([...(Object.keys(importers) as OnDemandModule[]).map(loadOnDemand), ...outsideLoaders.map((load) => load())]);
}

/** For catch-all handlers inside an update: NotLoaded must reach the engine. */
export function rethrowNotLoaded(err: unknown): void {
  if (err instanceof NotLoaded) throw err;
}
