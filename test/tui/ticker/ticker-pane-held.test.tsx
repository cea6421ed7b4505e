// A key in the contacts pane draws the dashboard again, and the contacts pane, but not the ticker
// pane: what the dashboard gives the ticker pane holds still while the ticker's part of the
// screen does (LiveTickerPane is memo). With 230 symbols on the watchlist, a held j drew every row
// of the watchlist at every key. The ticker pane's renders are counted by a pass-through mock:
// those given new props, which is what a key would cause. Its own redraw each second (the AGE
// column) keeps its props, and is not counted: it may land while the keys are pressed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dashboard } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../../helpers/dashboard.js';
import { setUpSandbox } from '../../helpers/sandbox.js';

const tickerRenders = vi.hoisted(() => ({ count: 0, last: undefined as unknown }));
vi.mock('../../../src/tui/ticker/TickerPane.js', async (original) => {
  const real = await original<typeof import('../../../src/tui/ticker/TickerPane.js')>();
  return {
    ...real,
    TickerPane: (props: Parameters<typeof real.TickerPane>[0]) => {
      if (props !== tickerRenders.last) tickerRenders.count++;
      tickerRenders.last = props;
      return real.TickerPane(props);
    },
  };
});

afterEach(unmountAll);

describe('the ticker pane while keys go to the contacts pane', () => {
  const ctx = setUpSandbox();

  it('is not drawn again by keys that change nothing of it', async () => {
    const h = drive(
      await renderDashboard(
        // A poll a minute: no tick comes while the keys are pressed.
        <Dashboard client={ctx.client} status={new StatusBoard()} target="sandbox (ticker held test)" watchlist={['AAPL', 'MSFT']} intervalS={60} size={{ columns: 120, rows: 40 }} />,
        120,
      ),
    );
    await h.until((f) => /AAPL .*\d+\.\d\d/.test(f) && /Ada|page 1/.test(f), 'the first prices and contacts');
    const before = tickerRenders.count;
    await h.press('j', 'j', 'j', 'j', 'k', 'k');
    await h.until((f) => /page 1/.test(f), 'the moves drawn');
    expect(tickerRenders.count - before).toBe(0);
    // Tab gives the ticker the keys: its title and highlight change, so it is drawn again.
    await h.press('\t');
    await h.until(() => tickerRenders.count > before, 'the ticker pane drawn with the focus');
  });
});
