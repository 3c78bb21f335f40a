# A/B of two builds of the plugin: the CPU time (user+sys of each hook process
# tree, from getrusage(RUSAGE_CHILDREN)) of `pre-tool-use` (Bash) and `stop`,
# started as hooks.json starts them, interleaved and paired by round. CPU time
# holds up on a loaded machine where wall time does not (npm run bench's
# ratios spread 0.8-1.5x on a busy 2-core VM).
#   python3 scripts/bench-ab.py BEFORE_PLUGIN_DIR AFTER_PLUGIN_DIR [ROUNDS]
# e.g. BEFORE = a `git archive <ref>` of main, built, and AFTER = ./plugin.
import json, os, resource, subprocess, sys, tempfile, statistics
variants = {'before': sys.argv[1], 'after': sys.argv[2]}
def cmd(plugin, ev): return json.load(open(os.path.join(plugin, 'hooks/hooks.json')))['hooks'][ev][0]['hooks'][0]['command']
homes = {k: tempfile.mkdtemp(prefix=f'abpy-{k}-') for k in variants}
base = {'session_id': 'ab-1', 'cwd': os.getcwd(), 'transcript_path': '/dev/null', 'permission_mode': 'default'}
inputs = {
  'PreToolUse': json.dumps({**base, 'hook_event_name': 'PreToolUse', 'tool_name': 'Bash', 'tool_use_id': 't', 'tool_input': {'command': 'npm test -- --run && git diff --stat'}}),
  'Stop': json.dumps({**base, 'hook_event_name': 'Stop', 'stop_hook_active': False}),
}
def cpu(): r = resource.getrusage(resource.RUSAGE_CHILDREN); return r.ru_utime + r.ru_stime
def run(k, ev):
  env = {'PATH': os.environ['PATH'], 'HOME': homes[k], 'ROZ_STORAGE_PATH': os.path.join(homes[k], 'store'), 'CLAUDE_PLUGIN_ROOT': variants[k]}
  c0 = cpu()
  r = subprocess.run(['/bin/sh', '-c', cmd(variants[k], ev)], input=inputs[ev], env=env, capture_output=True, text=True, start_new_session=True)
  if r.returncode != 0 or 'refused' in r.stdout or 'failed open' in r.stdout: raise SystemExit(f'{k} {ev}: {r.stdout} {r.stderr}')
  return (cpu() - c0) * 1000
def bare():
  c0 = cpu(); subprocess.run(['node', '-e', ''], start_new_session=True); return (cpu() - c0) * 1000
for k in variants:
  for ev in inputs: run(k, ev); run(k, ev)
N = int(sys.argv[3]) if len(sys.argv) > 3 else 40
s = {}
add = lambda n, v: s.setdefault(n, []).append(v)
for i in range(N):
  b = bare(); add('node -e ""', b)
  for ev in inputs:
    got = {}
    for k in (['before', 'after'] if i % 2 else ['after', 'before']): got[k] = run(k, ev)
    add(f'{ev} before', got['before']); add(f'{ev} after', got['after'])
    add(f'{ev} after-before ms', got['after'] - got['before'])
    add(f'{ev} after/before', got['after'] / got['before'])
    add(f'{ev} after/node', got['after'] / b); add(f'{ev} before/node', got['before'] / b)
q = lambda xs, p: sorted(xs)[round(p * (len(xs) - 1))]
for n, xs in s.items(): print(f'{n:26} median {statistics.median(xs):8.3f}  p25-p75 {q(xs, .25):8.3f} - {q(xs, .75):8.3f}')
