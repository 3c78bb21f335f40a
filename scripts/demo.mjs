// A guided run of the review gate with no API key: it plays the part of Claude
// Code, invoking roz exactly as the plugin's hooks.json does (a new process per
// event, JSON on stdin), and shows what the agent would be told at each step.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const plugin = join(root, 'plugin');
const hooks = JSON.parse(readFileSync(join(plugin, 'hooks', 'hooks.json'), 'utf8')).hooks;
const store = mkdtempSync(join(tmpdir(), 'roz-demo-'));
const env = { ...process.env, ROZ_STORAGE_PATH: store, CLAUDE_PLUGIN_ROOT: plugin };
const sid = 'demo-0001';
const base = { session_id: sid, cwd: root, transcript_path: '/dev/null', permission_mode: 'default' };
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${s}\x1b[0m` : s);

function hook(event, extra, label) {
  const cmd = hooks[event][0].hooks[0].command;
  const r = spawnSync('/bin/sh', ['-c', cmd], { input: JSON.stringify({ ...base, hook_event_name: event, ...extra }), env, encoding: 'utf8' });
  const out = r.stdout.trim() ? JSON.parse(r.stdout) : null;
  const said =
    out?.decision === 'block' ? `BLOCKED: ${out.reason.split('\n')[0]}` :
    out?.hookSpecificOutput?.permissionDecision ? `${out.hookSpecificOutput.permissionDecision.toUpperCase()}: ${(out.hookSpecificOutput.permissionDecisionReason ?? '').split('. ')[0]}` :
    out?.hookSpecificOutput?.additionalContext ? `context: ${out.hookSpecificOutput.additionalContext.slice(0, 90)}…` :
    out?.systemMessage ? `warning: ${out.systemMessage}` : 'no objection';
  console.log(`${bold(label.padEnd(46))} roz → ${said}`);
}
function cli(args, extraEnv = {}) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'roz'), ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8' });
  return (r.stdout + r.stderr).trim();
}

console.log(`roz demo — store: ${store}\n`);
hook('SessionStart', { source: 'startup' }, 'session starts');
hook('UserPromptSubmit', { prompt: '#roz write hello.txt' }, 'user: "#roz write hello.txt"');
hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: join(root, 'hello.txt'), content: 'hello' }, tool_use_id: 't1' }, 'agent: Write hello.txt');
hook('Stop', { stop_hook_active: false }, 'agent tries to stop');
hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: `roz decide ${sid} COMPLETE "trust me"` }, tool_use_id: 't2' }, 'agent: roz decide COMPLETE (itself)');
hook('PreToolUse', { tool_name: 'Agent', tool_input: { subagent_type: 'roz:roz', description: 'review', prompt: `SESSION_ID=${sid}\nWrote hello.txt` }, tool_use_id: 't3' }, 'agent spawns roz:roz');
hook('SubagentStart', { agent_id: 'rev1', agent_type: 'roz:roz' }, 'reviewer starts');
hook('PreToolUse', { agent_id: 'rev1', agent_type: 'roz:roz', tool_name: 'Bash', tool_input: { command: `roz decide ${sid} COMPLETE "diff read; hello.txt as asked"` }, tool_use_id: 't4' }, 'reviewer: roz decide COMPLETE');
console.log(`${bold('  (the Bash tool runs it)'.padEnd(46))} ${cli(['decide', 'COMPLETE', 'diff read; hello.txt as asked'], { CLAUDE_CODE_SESSION_ID: sid })}`);
hook('PostToolUse', { agent_id: 'rev1', agent_type: 'roz:roz', tool_name: 'Bash', tool_input: {}, tool_response: {}, tool_use_id: 't4' }, 'reviewer command finished');
hook('SubagentStop', { agent_id: 'rev1', agent_type: 'roz:roz', stop_hook_active: false }, 'reviewer finishes');
hook('Stop', { stop_hook_active: true }, 'agent tries to stop again');
console.log(`\n${bold('roz trace ' + sid)}\n${cli(['trace', sid])}`);
console.log(`\n${bold('roz stats')}\n${cli(['stats'])}`);
