// The tab row stays one row on a narrow screen: tab names whole, help text cut.
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TabBar } from '../../src/tui/components/TabBar.js';

describe('TabBar', () => {
  it.each([60, 80, 120])('is one row at %i columns with every tab name whole', (width) => {
    const r = render(
      <Box width={width}>
        <TabBar tab="approvals" pending={1} hotkey="Ctrl-]" />
      </Box>,
    );
    const frame = r.lastFrame() ?? '';
    expect(frame.split('\n')).toHaveLength(1);
    expect(frame).toContain(' 1 trace  2 approvals (1)  3 reviews  4 intents  5 stats ');
    r.unmount();
  });
});
