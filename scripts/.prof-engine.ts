import { runHook } from '../src/engine/engine.js';
const store = '/tmp/prof-eng/store';
const env = {
  HOME: '/tmp/prof-eng',
  ROZ_STORAGE_PATH: store,
  PATH: process.env.PATH,
  CLAUDE_PLUGIN_ROOT: '/work/wt/scale/plugin',
  ROZ_SOCKET: '/x',
  ROZ_HOOK_TRANSPORT: 'http',
};
const input = (i: number) =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: '/t',
    cwd: '/work/wt/scale',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_use_id: `t${i}`,
    tool_input: { command: `echo judged-call-${i}` },
  });
const times: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  await runHook('PreToolUse', input(i), { env });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log('median', times[100].toFixed(2), 'p10', times[20].toFixed(2), 'first', times.length);
