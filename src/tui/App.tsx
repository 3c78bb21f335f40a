// The roz views behind the focus hotkey (or in the split panel): live trace,
// approvals, reviews, intents and stats, and the `?` key overlay. Renders
// only; state comes from hooks.
import { Box, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { ApprovalPrompt, widenShown } from './components/ApprovalPrompt.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { IntentsView } from './components/IntentsView.js';
import { ReviewsView } from './components/ReviewsView.js';
import { StatsView } from './components/StatsView.js';
import { TabBar, type Tab } from './components/TabBar.js';
import { TraceView } from './components/TraceView.js';
import { AgentsView } from './fleet/AgentsView.js';
import { DiffView, diffRows } from './fleet/DiffView.js';
import type { FleetUi } from './fleet/fleet-ui.js';
import { useApprovals } from './hooks/use-approvals.js';
import { useFleet, type FleetState } from './hooks/use-fleet.js';
import { useIntents } from './hooks/use-intents.js';
import { keyContext, useKeymap } from './hooks/use-keymap.js';
import { useSnapshot } from './hooks/use-snapshot.js';
import { useTrace } from './hooks/use-trace.js';
import { selectedIntentId } from '../supervisor/project-intents.js';
import { HOTKEY_LABEL } from './screen/input-router.js';
import type { SupervisorSource } from './source.js';

export interface AppProps {
  source: SupervisorSource;
  width: number;
  height: number;
  /** Drawn as a panel beside or under Claude's pane. */
  split?: boolean;
  /** Whether keys come here (false: the panel is on screen while Claude has the keyboard). */
  focused?: boolean;
  onLeave?: () => void;
  onToggleSplit?: () => void;
  /** Detach this window from the background supervisor (the agents keep running); absent: the supervisor runs here. */
  onDetach?: () => void;
  /** Clock for the approval countdown (tests pin it). */
  now?: () => number;
  /** The fleet of this run (the agents tab); absent: a run of one agent without a host (tests). */
  fleet?: FleetUi;
  /** The agent in view (the source's snapshot is of it): a change re-reads the snapshot. */
  view?: string;
}

function useTicker(active: boolean, now: () => number): number {
  const [t, setT] = useState(now);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setT(now()), 1000);
    return () => clearInterval(timer);
  }, [active, now]);
  return active ? t : now();
}

/** The agents tab: the fleet and its queue, then the line of the mode or the last action's outcome. */
function AgentsTab({ fleet, state, now, width, height }: { fleet: FleetUi | undefined; state: FleetState; now: number; width: number; height: number }) {
  if (!fleet) return <Text dimColor>no fleet in this view</Text>;
  if ((state.mode === 'diff' || state.mode === 'review') && state.diff) {
    state.actions.setDiffRows(diffRows(height));
    const review =
      state.mode === 'review' && state.diff.head
        ? `review ${state.diff.agent} yourself: y approves exactly this (${state.diff.branch ?? 'its branch'} at ${state.diff.head.slice(0, 12)}) and merges · Esc n leave it`
        : undefined;
    return (
      <DiffView
        agent={state.diff.agent}
        summary={state.diff.summary}
        lines={state.diff.lines}
        top={state.diff.top}
        width={width}
        height={height}
        {...(review ? { review } : {})}
      />
    );
  }
  const rows = fleet.rows();
  const line =
    state.mode === 'name'
      ? { text: `new agent's name: ${state.name}▏  (⏎ next: its first prompt, Esc cancel)`, color: 'cyan' }
      : state.mode === 'prompt'
        ? {
            text: `${state.name}'s first prompt: ${[...state.prompt].slice(-Math.max(10, width - state.name.length - 40)).join('')}▏  (⏎ start, Esc cancel)`,
            color: 'cyan',
          }
        : state.mode === 'confirm-stop'
          ? { text: `stop ${state.target}? y stops it (SIGTERM), n keeps it`, color: 'yellow' }
          : state.mode === 'confirm-remove'
            ? { text: `remove ${state.target}'s worktree and branch? y removes them (unmerged work is kept and refused), n keeps them`, color: 'yellow' }
            : state.message
              ? {
                  text: state.message.message.split('\n').filter(Boolean).slice(0, 3).join(' · '),
                  color: state.message.busy ? 'cyan' : state.message.ok ? 'green' : 'red',
                }
              : {
                  text:
                    rows.length > 1
                      ? '↑↓ agent · ⏎ pane · w waiting · n new · d diff · m merge · x stop · r rm · ? keys'
                      : 'only main runs: n adds an agent in a worktree of its own · ? keys',
                  color: undefined,
                };
  return (
    <Box flexDirection="column" height={height}>
      <AgentsView agents={rows} queue={fleet.queue()} current={fleet.current()} now={now} width={width} height={Math.max(3, height - 1)} work={state.work} />
      <Text color={line.color} wrap="truncate-end">
        {line.text}
      </Text>
    </Box>
  );
}

export function App({ source, width, height, split = false, focused = true, onLeave, onToggleSplit, onDetach, now = Date.now, fleet, view }: AppProps) {
  const snap = useSnapshot(source, view);
  const [tab, setTab] = useState<Tab>('trace');
  const [help, setHelp] = useState({ open: false, top: 0 });
  const bodyHeight = Math.max(3, height - 1);
  const trace = useTrace(source, snap.totalEvents, bodyHeight - 1, width);
  const approvals = useApprovals(source, snap.pending, (a) => widenShown(a, width, bodyHeight));
  const intents = useIntents(source, snap.intents);
  const fleetState = useFleet(fleet ?? null, tab === 'agents');
  const tick = useTicker(snap.pending.length > 0 || tab === 'agents', now);

  // A new request for a human always brings its prompt to the front; once
  // none is left, the view the human was in comes back.
  const seen = useRef(0);
  const before = useRef<Tab | null>(null);
  useEffect(() => {
    const n = snap.pending.length;
    if (n > seen.current) {
      if (before.current === null) before.current = tab;
      setTab('approvals');
      setHelp({ open: false, top: 0 });
    } else if (n === 0 && seen.current > 0 && before.current !== null) {
      setTab(before.current);
      before.current = null;
    }
    seen.current = n;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [snap.pending.length]);

  const ctx = keyContext({ tab, trace, approvals, fleet: fleetState });
  useKeymap(
    {
      tab,
      setTab: (t) => {
        // The human chose a view: it is the one to come back to.
        if (before.current !== null) before.current = t;
        setTab(t);
      },
      trace,
      approvals,
      intents,
      fleet: fleetState,
      help: {
        open: help.open,
        toggle: () => setHelp((h) => ({ open: !h.open, top: 0 })),
        scroll: (d) => setHelp((h) => ({ ...h, top: Math.max(0, h.top + d) })),
      },
      leave: () => onLeave?.(),
      toggleSplit: () => onToggleSplit?.(),
      ...(onDetach ? { detach: onDetach } : {}),
    },
    true,
  );

  let body;
  if (help.open) {
    body = <HelpOverlay ctx={ctx} top={help.top} height={bodyHeight} width={width} />;
  } else {
    switch (tab) {
      case 'trace':
        body = <TraceView {...trace} height={bodyHeight} width={width} inFleet={(snap.fleet?.agents ?? 1) > 1} />;
        break;
      case 'approvals':
        body = (
          <ApprovalPrompt
            approval={approvals.current}
            queued={approvals.pending.length}
            mode={approvals.mode}
            reason={approvals.reason}
            now={tick}
            height={bodyHeight}
            width={width}
            focused={focused}
            client={snap.client}
            armed={approvals.armed}
            history={snap.decided}
            historyTop={approvals.historyTop}
            bodyTop={approvals.bodyTop}
            inFleet={(snap.fleet?.agents ?? 1) > 1}
            {...(snap.fleet?.waitingElsewhere ? { elsewhere: `${snap.fleet.waitingElsewhere} waiting in ${snap.fleet.elsewhere.join(', ')}` } : {})}
          />
        );
        break;
      case 'reviews':
        body = <ReviewsView state={snap.state} height={bodyHeight} />;
        break;
      case 'intents':
        body = (
          <IntentsView intents={snap.intents} selected={selectedIntentId(snap.state)} height={bodyHeight} cursor={intents.cursor} message={intents.message} />
        );
        break;
      case 'stats':
        body = <StatsView stats={snap.sessionId ? source.stats(snap.sessionId) : null} width={width} />;
        break;
      case 'agents':
        body = <AgentsTab fleet={fleet} state={fleetState} now={tick} width={width} height={bodyHeight} />;
        break;
    }
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <TabBar tab={tab} pending={snap.pending.length} hotkey={HOTKEY_LABEL} compact={split || width < 100} focused={focused} client={snap.client} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {body}
      </Box>
    </Box>
  );
}
