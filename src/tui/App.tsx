// The roz views behind the focus hotkey (or in the split panel): live trace,
// approvals, reviews, intents and stats, and the `?` key overlay. Renders
// only; state comes from hooks.
import { Box } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { ApprovalPrompt, widenShown } from './components/ApprovalPrompt.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { IntentsView } from './components/IntentsView.js';
import { ReviewsView } from './components/ReviewsView.js';
import { StatsView } from './components/StatsView.js';
import { TabBar, type Tab } from './components/TabBar.js';
import { TraceView } from './components/TraceView.js';
import { useApprovals } from './hooks/use-approvals.js';
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

export function App({ source, width, height, split = false, focused = true, onLeave, onToggleSplit, now = Date.now }: AppProps) {
  const snap = useSnapshot(source);
  const [tab, setTab] = useState<Tab>('trace');
  const [help, setHelp] = useState({ open: false, top: 0 });
  const bodyHeight = Math.max(3, height - 1);
  const trace = useTrace(source, snap.totalEvents, bodyHeight - 1, width);
  const approvals = useApprovals(source, snap.pending, (a) => widenShown(a, width, bodyHeight));
  const intents = useIntents(source, snap.intents);
  const tick = useTicker(snap.pending.length > 0, now);

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

  const ctx = keyContext({ tab, trace, approvals });
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
      help: {
        open: help.open,
        toggle: () => setHelp((h) => ({ open: !h.open, top: 0 })),
        scroll: (d) => setHelp((h) => ({ ...h, top: Math.max(0, h.top + d) })),
      },
      leave: () => onLeave?.(),
      toggleSplit: () => onToggleSplit?.(),
    },
    true,
  );

  let body;
  if (help.open) {
    body = <HelpOverlay ctx={ctx} top={help.top} height={bodyHeight} width={width} />;
  } else {
    switch (tab) {
      case 'trace':
        body = <TraceView {...trace} height={bodyHeight} width={width} />;
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
            armed={approvals.armed}
            history={snap.decided}
            historyTop={approvals.historyTop}
            bodyTop={approvals.bodyTop}
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
    }
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <TabBar tab={tab} pending={snap.pending.length} hotkey={HOTKEY_LABEL} compact={split || width < 100} focused={focused} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {body}
      </Box>
    </Box>
  );
}
