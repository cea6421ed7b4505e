// The undo window of a delete is kept on a monotonic clock, the one the ledger sends by and the
// offer counts down by: the wall clock stepped an hour either way (by hand, NTP, a VM resumed)
// neither stretches the window nor ends it, and time spent suspended in the shell does not count.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { Lifecycle, LifecycleContext } from '../../src/tui/lifecycle.js';
import { undoSecondChangesIn, undoSecondsLeft } from '../../src/tui/contacts/contacts-state.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { WriteLedger } from '../../src/tui/contacts/write-ledger.js';
import { drive, renderDashboard, unmountAll } from '../helpers/dashboard.js';
import { pause, waitFor } from '../helpers/ink.js';
import { type TestSandbox, setUpSandbox } from '../helpers/sandbox.js';

const HOUR = 3_600_000;
const realNow = Date.now.bind(Date);

/** Steps the wall clock by `ms` from here on, as a clock set by hand does; time goes on passing. */
function stepWallClock(ms: number): void {
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  vi.restoreAllMocks();
  await unmountAll();
});

describe('WriteLedger on its own clock', () => {
  it('sends a held-back write when its clock says so, whatever the timer and the wall clock say', async () => {
    let t = 0;
    const ledger = new WriteLedger(() => t);
    const sent: string[] = [];
    ledger.defer('delete', 50, async () => {
      sent.push('delete');
    });
    stepWallClock(HOUR);
    await sleep(200);
    expect(sent, 'sent before its clock reached the due time').toEqual([]);
    t = 50;
    const deadline = realNow() + 5000;
    while (sent.length === 0 && realNow() < deadline) await sleep(10);
    expect(sent).toEqual(['delete']);
  });

  it('hold keeps the time left on that clock and release gives it back, the wall clock stepped both ways meanwhile', () => {
    let t = 1000;
    const ledger = new WriteLedger(() => t);
    expect(ledger.defer('delete', 5000, async () => undefined)).toBe(6000);
    stepWallClock(-HOUR);
    t = 3000;
    expect(ledger.hold('delete')).toBe(true);
    stepWallClock(2 * HOUR);
    // A minute in the shell.
    t = 63_000;
    expect(ledger.release('delete')).toBe(66_000);
    expect(ledger.now()).toBe(63_000);
    ledger.discard();
  });

  it('the countdown reads the due time on the same clock: whole seconds up, never below 0', () => {
    const contact = { id: 'c', username: 'u', phoneNumber: '+1', avatarUrl: null, displayName: null, conversationId: 'v', lastActiveAt: null, createdAt: new Date(0) };
    expect(undoSecondsLeft({ contact, dueAt: 5000 }, 0)).toBe(5);
    expect(undoSecondsLeft({ contact, dueAt: 5000 }, 4001)).toBe(1);
    expect(undoSecondsLeft({ contact, dueAt: 5000 }, 5000)).toBe(0);
    expect(undoSecondsLeft({ contact, dueAt: 5000 }, 5000 + HOUR)).toBe(0);
  });

  it("the countdown's next change is just past the next whole second from the due time, none once it has run out", () => {
    expect(undoSecondChangesIn(5000, 0)).toBe(1001);
    expect(undoSecondChangesIn(5000, 450)).toBe(551);
    expect(undoSecondChangesIn(5000, 4999)).toBe(2);
    expect(undoSecondChangesIn(5000, 5000)).toBeUndefined();
    expect(undoSecondChangesIn(5000, 5000 + HOUR)).toBeUndefined();
  });
});

function countDeletes(sb: TestSandbox): number {
  return sb.logLines.filter((line) => line.includes(' DELETE /v1/contacts/')).length;
}

const secondsShown = (frame: string): number | undefined => {
  const match = /u: undo \((\d+)s\)/.exec(frame);
  return match ? Number(match[1]) : undefined;
};

describe('the undo offer in the dashboard', () => {
  const ctx = setUpSandbox();

  async function mount(undoWindowMs: number, lifecycle = new Lifecycle()) {
    const instance = await renderDashboard(
      <LifecycleContext.Provider value={lifecycle}>
        <Dashboard client={ctx.client} status={new StatusBoard()} target="test" watchlist={['AAPL']} intervalS={30} size={{ columns: 120, rows: 40 }} undoWindowMs={undoWindowMs} />
      </LifecycleContext.Provider>,
      120,
    );
    const h = drive(instance);
    await h.until((f) => /on this page/.test(f), 'the first page');
    return h;
  }

  it('counts down the same whether the wall clock is stepped back or forward an hour', async () => {
    const h = await mount(20_000);
    const deletesBefore = countDeletes(ctx.sb);
    await h.press('d', 'y');
    await h.until((f) => secondsShown(f) !== undefined, 'the undo offer');
    stepWallClock(-HOUR);
    // Past the offer's next tick (every second), drawn since the step.
    await pause(1500);
    let shown = secondsShown(h.frame());
    expect(shown, h.frame()).toBeGreaterThanOrEqual(1);
    expect(shown, h.frame()).toBeLessThanOrEqual(20);
    stepWallClock(HOUR);
    await pause(1500);
    shown = secondsShown(h.frame());
    expect(shown, h.frame()).toBeGreaterThanOrEqual(1);
    expect(shown, h.frame()).toBeLessThanOrEqual(19);
    // Still undoable, and nothing was sent.
    await h.press('u');
    await h.until((f) => f.includes('kept '), 'the undo notice');
    expect(countDeletes(ctx.sb)).toBe(deletesBefore);
  });

  it('suspended past the window and resumed: nothing was sent, and the offer has the time it had left', async () => {
    const lifecycle = new Lifecycle();
    const h = await mount(1500, lifecycle);
    const deletesBefore = countDeletes(ctx.sb);
    await h.press('d', 'y');
    await h.until((f) => secondsShown(f) !== undefined, 'the undo offer');
    await act(async () => {
      lifecycle.emit('suspend');
    });
    await pause(2500);
    expect(countDeletes(ctx.sb), 'sent while suspended').toBe(deletesBefore);
    await act(async () => {
      lifecycle.emit('resume');
    });
    const frame = await h.until((f) => secondsShown(f) !== undefined, 'the undo offer after resuming');
    expect(secondsShown(frame)).toBeGreaterThanOrEqual(1);
    await h.press('u');
    await h.until((f) => f.includes('kept '), 'the undo notice');
    await pause(300);
    expect(countDeletes(ctx.sb)).toBe(deletesBefore);
  });

  it('after resuming, the window runs out on its own and the DELETE is sent', async () => {
    const lifecycle = new Lifecycle();
    const h = await mount(1000, lifecycle);
    const deletesBefore = countDeletes(ctx.sb);
    await h.press('d', 'y');
    await h.until((f) => secondsShown(f) !== undefined, 'the undo offer');
    await act(async () => {
      lifecycle.emit('suspend');
    });
    await pause(1500);
    await act(async () => {
      lifecycle.emit('resume');
    });
    await waitFor(() => countDeletes(ctx.sb) === deletesBefore + 1, 5000, 'the DELETE after the rest of the window');
  });
});
