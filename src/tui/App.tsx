// The roz views behind the focus hotkey: live trace, approvals, reviews,
// intents and stats. Renders only; state comes from hooks.
import { Box } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { ApprovalPrompt } from './components/ApprovalPrompt.js';
import { IntentsView } from './components/IntentsView.js';
import { ReviewsView } from './components/ReviewsView.js';
import { StatsView } from './components/StatsView.js';
import { TabBar, type Tab } from './components/TabBar.js';
import { TraceView } from './components/TraceView.js';
import { useApprovals } from './hooks/use-approvals.js';
import { useKeymap } from './hooks/use-keymap.js';
import { useSnapshot } from './hooks/use-snapshot.js';
import { useTrace } from './hooks/use-trace.js';
import { selectedIntentId } from '../supervisor/project-intents.js';
import { HOTKEY_LABEL } from './screen/input-router.js';
import type { SupervisorSource } from './source.js';

export interface AppProps {
  source: SupervisorSource;
  width: number;
  height: number;
  onLeave?: () => void;
  /** Clock for the approval countdown (tests pin it). */
  now?: () => number;
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

export function App({ source, width, height, onLeave, now = Date.now }: AppProps) {
  const snap = useSnapshot(source);
  const [tab, setTab] = useState<Tab>('trace');
  const bodyHeight = Math.max(3, height - 1);
  const trace = useTrace(source, snap.totalEvents, bodyHeight - 1);
  const approvals = useApprovals(source, snap.pending);
  const tick = useTicker(snap.pending.length > 0, now);

  // A new request for a human always brings its prompt to the front.
  const seen = useRef(0);
  useEffect(() => {
    if (snap.pending.length > seen.current) setTab('approvals');
    seen.current = snap.pending.length;
  }, [snap.pending.length]);

  useKeymap({ tab, setTab, trace, approvals, leave: () => onLeave?.() }, true);

  let body;
  switch (tab) {
    case 'trace':
      body = <TraceView {...trace} height={bodyHeight} width={width} />;
      break;
    case 'approvals':
      body = <ApprovalPrompt approval={approvals.current} queued={approvals.pending.length} mode={approvals.mode} reason={approvals.reason} now={tick} height={bodyHeight} width={width} />;
      break;
    case 'reviews':
      body = <ReviewsView state={snap.state} height={bodyHeight} />;
      break;
    case 'intents':
      body = <IntentsView intents={snap.intents} selected={selectedIntentId(snap.state)} height={bodyHeight} />;
      break;
    case 'stats':
      body = <StatsView stats={snap.sessionId ? source.stats(snap.sessionId) : null} />;
      break;
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <TabBar tab={tab} pending={snap.pending.length} hotkey={HOTKEY_LABEL} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {body}
      </Box>
    </Box>
  );
}
