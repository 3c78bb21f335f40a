// roz's config as the supervisor last loaded it, reloaded when one of its
// files (the user's, the project's .roz/config.toml) changes on disk, and the
// one file watcher the supervisor has: other views (the intents of a
// session's project) watch their files through it and hear about them here.
import { resolve } from 'node:path';
import { loadConfig } from '../engine/config-loader.js';
import { FileWatch } from './file-watch.js';

export type LoadedConfig = ReturnType<typeof loadConfig>;

export interface ConfigWatchEvents {
  /** A config file changed: the config is reloaded; problems are what is wrong with it now. */
  reloaded: (file: string, problems: string[]) => void;
  /** Another watched file changed. */
  changed: (file: string) => void;
}

export class ConfigWatch {
  private loaded: LoadedConfig;
  /** Reloads happen on file events (polling only without them). */
  readonly files: FileWatch;

  constructor(
    private readonly env: Record<string, string | undefined>,
    /** Where the run started: finds the project's .roz/config.toml. */
    private readonly cwd: string | undefined,
    private readonly on: ConfigWatchEvents,
    /** The config as the launcher already loaded it (core/launch-plan.ts): not loaded twice. */
    initial?: LoadedConfig,
  ) {
    this.loaded = initial ?? loadConfig(env, { cwd });
    this.files = new FileWatch((file) => this.fileChanged(file));
    for (const f of this.loaded.files) this.files.add(f.path);
  }

  get current(): LoadedConfig {
    return this.loaded;
  }

  /** Watch one more file; its changes come to `changed`. */
  watch(file: string): void {
    this.files.add(file);
  }

  private fileChanged(file: string): void {
    if (this.loaded.files.some((f) => resolve(f.path) === file)) {
      this.loaded = loadConfig(this.env, { cwd: this.cwd });
      this.on.reloaded(file, this.loaded.problems);
      return;
    }
    this.on.changed(file);
  }

  close(): Promise<void> {
    return this.files.close();
  }
}
