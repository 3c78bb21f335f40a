// plugin/dist/render.cjs: the renderer alone, for plugin/bin/roz when the hook
// bundle cannot run (missing, broken, or it exited without answering), so
// even that answer is shaped by engine/output.ts.
export { renderOutput } from './output.js';
export { hookCliNames } from '../core/hook-input.js';
