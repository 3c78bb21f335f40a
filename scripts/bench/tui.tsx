// The live trace under load: the real Supervisor's event path (frame ->
// LiveEvent -> ring -> coalesced notify) feeding the real App, rendered by
// Ink in debug mode into an off-screen stdout exactly as `roz run` does.
// For each target rate: did the feed keep the rate, did frames keep coming,
// how stale was the screen when the feed stopped, how late was the event loop.
// Then memory after many events (bounded: compared with after few).
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { render } from 'ink';
import { App } from '../../src/tui/App.js';
import { InkStdin } from '../../src/tui/screen/ink-surface.js';
import type { HookFrame } from '../../src/supervisor/hooks/channel-protocol.js';
import type { HookConnection } from '../../src/supervisor/hooks/channel-server.js';
import { Supervisor } from '../../src/supervisor/supervisor.js';
import { quantiles, round, sandboxEnv, SID } from './common.js';

class CountingStdout extends EventEmitter {
  readonly isTTY = true;
  columns = 120;
  rows = 40;
  frames = 0;
  last = '';
  /** Supervisor notification time not yet answered by a frame, and notify-to-frame latencies. */
  notifiedAt = 0;
  latencies: number[] = [];
  /** Ink's own render time per frame (layout + output), from its onRender option. */
  inkRender: number[] = [];
  write = (frame: string): boolean => {
    this.frames += 1;
    this.last = frame;
    if (this.notifiedAt) {
      this.latencies.push(performance.now() - this.notifiedAt);
      this.notifiedAt = 0;
    }
    return true;
  };
}

const conn: HookConnection = { reply: () => {}, closed: false, onClose: () => {} };
const VERDICTS: HookFrame['verdict'][] = [
  { kind: 'allow', reason: 'ok' },
  { kind: 'none' },
  { kind: 'deny', code: 'SCOPE_VIOLATION', reason: 'outside the intent' },
];

function frame(i: number): HookFrame {
  return {
    v: 1,
    id: `f${i}`,
    token: 't',
    event: i % 2 ? 'PostToolUse' : 'PreToolUse',
    input: {
      session_id: SID,
      cwd: '/tmp',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: `toolu_${i}`,
      tool_input: { command: `npm test -- --run shard-${i}` },
    },
    verdict: VERDICTS[i % 3]!,
  };
}

const tick = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const shownTotal = (out: CountingStdout): number => Number(/ (\d+) events/.exec(out.last)?.[1] ?? -1);

async function setup(mount = true) {
  const { env, home } = sandboxEnv();
  const sup = await Supervisor.start({ env, approvalTimeoutMs: 10_000, log: () => {} });
  // The supervisor's own frame handler (private: the socket calls it), so the feed skips only the socket.
  const onFrame = (sup as unknown as { onFrame(f: HookFrame, c: HookConnection): void }).onFrame.bind(sup);
  const out = new CountingStdout();
  // Subscribed before the App, so it hears each notification first: notify -> frame is the view's render latency.
  sup.subscribe(() => {
    if (!out.notifiedAt) out.notifiedAt = performance.now();
  });
  const ink = mount
    ? render(<App source={sup} width={out.columns} height={out.rows} />, {
        stdout: out as unknown as NodeJS.WriteStream,
        stdin: new InkStdin() as unknown as NodeJS.ReadStream,
        debug: true,
        exitOnCtrlC: false,
        patchConsole: false,
        onRender: ({ renderTime }: { renderTime: number }) => void out.inkRender.push(renderTime),
      })
    : null;
  let seq = 0;
  return {
    sup,
    out,
    push: (n: number) => {
      for (let k = 0; k < n; k++) onFrame(frame(seq++), conn);
    },
    close: async () => {
      ink?.unmount();
      await sup.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Baseline: the same feed, as fast as it goes, into a supervisor with no view mounted. */
async function eventPathOnly(windowMs: number): Promise<number> {
  const t = await setup(false);
  const start = performance.now();
  let pushed = 0;
  while (performance.now() - start < windowMs) {
    t.push(1_000);
    pushed += 1_000;
    await tick();
  }
  const rate = pushed / ((performance.now() - start) / 1000);
  await t.close();
  return Math.round(rate);
}

export async function tuiRates(rates: number[], windowMs: number) {
  const baseline = await eventPathOnly(windowMs);
  const t = await setup();
  // Warm-up: JIT and Ink's first layouts are not what a running session sees.
  for (let i = 0; i < 20; i++) {
    t.push(500);
    await sleep(50);
  }
  await sleep(200);
  const rows: Array<Record<string, number | boolean>> = [];
  // A first, unreported window at 10k events/s finishes the warm-up (renders were still getting faster).
  for (const [i, rate] of [10_000, ...rates].entries()) {
    const h = monitorEventLoopDelay({ resolution: 5 });
    const framesBefore = t.out.frames;
    t.out.latencies = [];
    t.out.inkRender = [];
    const start = performance.now();
    let pushed = 0;
    h.enable();
    // Push what the clock says is due, in slices, yielding so timers and renders run.
    for (;;) {
      const elapsed = performance.now() - start;
      if (elapsed >= windowMs) break;
      const due = Math.floor((rate * elapsed) / 1000) - pushed;
      // At most 50 ms worth at once: a loop blocked by a render catches up as a socket backlog would.
      const slice = Math.min(due, Math.max(1, Math.ceil(rate / 20)));
      if (slice > 0) {
        t.push(slice);
        pushed += slice;
      }
      await tick();
    }
    const fed = performance.now() - start;
    h.disable();
    const target = t.sup.events.total;
    const framesDuring = t.out.frames - framesBefore;
    // How long until the screen shows the last event: the view's lag.
    const stopAt = performance.now();
    while (shownTotal(t.out) < target && performance.now() - stopAt < 5_000) await sleep(2);
    const lag = performance.now() - stopAt;
    const achieved = pushed / (fed / 1000);
    const p99 = h.percentile(99) / 1e6;
    if (i === 0) {
      await sleep(100);
      continue;
    }
    rows.push({
      target_events_per_second: rate,
      achieved_events_per_second: Math.round(achieved),
      frames_per_second: round(framesDuring / (fed / 1000), 1),
      notify_to_frame_median_ms: t.out.latencies.length ? round(quantiles(t.out.latencies).median, 1) : -1,
      ink_render_median_ms: t.out.inkRender.length ? round(quantiles(t.out.inkRender).median, 1) : -1,
      screen_lag_ms: round(lag, 1),
      event_loop_delay_p99_ms: round(p99, 1),
      // Kept up: the feed held its rate, frames kept coming, the screen caught up within a
      // quarter second, and a keypress would have waited under 200 ms (loop delay p99).
      kept_up: achieved >= rate * 0.9 && lag < 250 && p99 < 200 && framesDuring > 0,
    });
    await sleep(100);
  }
  await t.close();
  // The highest rate up to which every rate kept up.
  let sustained = 0;
  for (const r of rows) {
    if (!r.kept_up) break;
    sustained = r.target_events_per_second as number;
  }
  return { window_ms: windowMs, baseline_event_path_no_view_events_per_second: baseline, rates: rows, max_sustained_events_per_second: sustained };
}

/** Full GCs with pauses between, so finalizers (Yoga nodes, WeakRefs) run before the reading. */
async function mem() {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await sleep(30);
  }
  const m = process.memoryUsage();
  return { heap_mib: round(m.heapUsed / 2 ** 20, 1), rss_mib: round(m.rss / 2 ** 20, 1) };
}

/** Events pushed in batches with yields, so the view re-renders as it would live. */
export async function tuiMemory(small: number, large: number, mount = true) {
  const t = await setup(mount);
  const feed = async (n: number) => {
    for (let done = 0; done < n; ) {
      const k = Math.min(5_000, n - done);
      t.push(k);
      done += k;
      await tick();
    }
    await sleep(120);
  };
  await feed(small);
  const a = await mem();
  const t0 = performance.now();
  await feed(large - small);
  const secs = (performance.now() - t0) / 1000;
  const b = await mem();
  const total = t.sup.events.total;
  const frames = t.out.frames;
  await t.close();
  return {
    view_mounted: mount,
    gc_exposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    ring_capacity: t.sup.events.capacity,
    after_small: { events: small, ...a },
    after_large: { events: total, ...b },
    heap_growth_ratio: round(b.heap_mib / a.heap_mib, 2),
    rss_growth_ratio: round(b.rss_mib / a.rss_mib, 2),
    unthrottled_feed_events_per_second: Math.round((large - small) / secs),
    frames,
  };
}
