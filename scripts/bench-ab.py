# A/B of two builds of the plugin: the CPU time (user+sys of each hook process
# tree, from getrusage(RUSAGE_CHILDREN)) of `pre-tool-use` (Bash) and `stop`,
# started as hooks.json starts them, interleaved and paired by round. CPU time
# holds up on a loaded machine where wall time does not (npm run bench's
# ratios spread 0.8-1.5x on a busy 2-core VM).
#   python3 scripts/bench-ab.py BEFORE_PLUGIN_DIR AFTER_PLUGIN_DIR [ROUNDS]
#   python3 scripts/bench-ab.py --instructions BEFORE_PLUGIN_DIR AFTER_PLUGIN_DIR
# e.g. BEFORE = a `git archive <ref>` of main, built, and AFTER = ./plugin.
# --instructions counts instructions instead (valgrind's callgrind, V8's seeds
# fixed: repeatable to within thousands), after a warm-up as a session runs
# (SessionStart first writes the code cache), for Bash and Read pre-tool-use and stop.
import json, os, re, resource, subprocess, sys, tempfile, statistics
INSTRUCTIONS = '--instructions' in sys.argv
args = [a for a in sys.argv[1:] if a != '--instructions']
variants = {'before': args[0], 'after': args[1]}
def cmd(plugin, ev, prefix=''):
  c = json.load(open(os.path.join(plugin, 'hooks/hooks.json')))['hooks'][ev][0]['hooks'][0]['command']
  if not INSTRUCTIONS: return c
  # Older builds ran the launcher by its shebang: give every build the same node, seeded, under `prefix`.
  if not re.search(r'\bnode ', c): c = c.replace('"${CLAUDE_PLUGIN_ROOT}/bin/roz"', 'node "${CLAUDE_PLUGIN_ROOT}/bin/roz"')
  return re.sub(r'\bnode ', f'{prefix}node --random-seed=1 --hash-seed=1 ', c, count=1)
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
  # The same environment as the hooks: no NODE_EXTRA_CA_CERTS (hooks.json empties it for the hook anyway).
  c0 = cpu(); subprocess.run(['node', '-e', ''], env={'PATH': os.environ['PATH']}, start_new_session=True); return (cpu() - c0) * 1000
if INSTRUCTIONS:
  VG = 'valgrind --tool=callgrind --callgrind-out-file=/dev/null '
  inputs['PreToolUse Read'] = inputs['PreToolUse'].replace('"tool_name": "Bash"', '"tool_name": "Read"').replace('"command": "npm test -- --run && git diff --stat"', f'"file_path": "{os.path.join(os.getcwd(), "README.md")}"')
  start = json.dumps({**base, 'hook_event_name': 'SessionStart', 'source': 'startup'})
  def count(script, data, env):
    r = subprocess.run(['/bin/sh', '-c', script], input=data, env=env, capture_output=True, text=True, start_new_session=True)
    n = re.findall(r'Collected : (\d+)', r.stderr)
    if not n or 'refused' in r.stdout or 'failed open' in r.stdout: raise SystemExit(f'{script}: {r.stdout} {r.stderr[-1500:]}')
    return int(n[-1])
  node = min(count(VG + 'node --random-seed=1 --hash-seed=1 -e ""', '', {'PATH': os.environ['PATH']}) for _ in range(2))
  print(f'{"node -e":26} {node / 1e6:9.2f}M')
  for k, plugin in variants.items():
    env = {'PATH': os.environ['PATH'], 'HOME': homes[k], 'ROZ_STORAGE_PATH': os.path.join(homes[k], 'store'), 'CLAUDE_PLUGIN_ROOT': plugin}
    subprocess.run(['/bin/sh', '-c', cmd(plugin, 'SessionStart')], input=start, env=env, capture_output=True, text=True, start_new_session=True)
    for name, data in inputs.items():
      ev = name.split(' ')[0]
      for _ in range(2): subprocess.run(['/bin/sh', '-c', cmd(plugin, ev)], input=data, env=env, capture_output=True, text=True, start_new_session=True)
      n = min(count(cmd(plugin, ev, VG), data, env) for _ in range(2))
      print(f'{name + " " + k:26} {n / 1e6:9.2f}M  x{n / node:.3f}  +{(n - node) / 1e6:.2f}M')
  sys.exit(0)
for k in variants:
  for ev in inputs: run(k, ev); run(k, ev)
N = int(args[2]) if len(args) > 2 else 40
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
