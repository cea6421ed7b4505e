// The ticker's polling: one poll at a time, the next scheduled only after the last one ends,
// paused on request or while suspended, backing off on errors and as a 429 asks.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TickbookClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { ConfigSaveError } from '../../config/config-file.js';
import { ConfigReadError, type SyncedSettings } from '../../config/settings-sync.js';
import { describeRejected, type Quote, type RejectedQuote } from '../../api/types.js';
import { useLifecycle } from '../lifecycle.js';
import type { StatusBoard } from '../state/status.js';
import { errorText } from '../state/error-text.js';
import { cursorCommands } from '../state/cursor-commands.js';
import { ExternalState, useSelected } from '../state/external-state.js';
import type { ColumnName, Watchlists } from '../../market/watchlists.js';
import { displayOrder, initialTickerState, isSameList, nextDelayMs, tickerReducer, type TickerState } from './ticker-state.js';
import { UNDO_WINDOW_MS } from '../contacts/contacts-state.js';
import { type Clock, monotonic } from '../contacts/write-ledger.js';

export interface TickerOptions {
  /** The saved lists, or symbols for this run. */
  watchlist: Watchlists | readonly string[];
  intervalS: number;
  /**
   * Saves the lists and interval as this window changed them, and may give what it should hold
   * now: others' saves merged in. Throws when they cannot be saved.
   */
  persist?: ((lists: Watchlists, intervalS: number) => SyncedSettings | void) | undefined;
  /** Asked at each poll: what others saved since (and a save that failed tried again). */
  refresh?: ((lists: Watchlists, intervalS: number) => SyncedSettings | undefined) | undefined;
  /**
   * Told of each poll: the symbols asked, and the prices as received (the price history records
   * them, the alerts are stepped on them), or undefined when the poll failed.
   */
  onPrices?: ((asked: readonly string[], quotes: readonly Quote[] | undefined, at: number) => void) | undefined;
  /** Symbols to ask for besides the list shown (those of the alerts), whose prices are not shown. */
  extraSymbols?: (() => readonly string[]) | undefined;
  /** The clock, for tests. */
  now?: () => number;
  /** How long `u` can put a removed symbol back (the delete's undo window, 5 s). */
  undoWindowMs?: number | undefined;
  /** The clock that window runs on: monotonic, as the delete's (the write ledger's). */
  undoClock?: Clock | undefined;
}

/** A save of the settings that failed, or a read of what others saved: the reason first, as a long path would cut it off the line. */
function settingsFailure(error: unknown): string {
  if (error instanceof ConfigSaveError) return `watchlist not saved: ${error.reason} (${error.where}); kept for this session`;
  if (error instanceof ConfigReadError) return `config not read: ${error.reason} (${error.where}); this window keeps its lists`;
  return `watchlist not saved: ${errorText(error)}; kept for this session`;
}

/** "left out AAPL: price is negative (-5)", and how many more. */
function leftOut(rejected: readonly RejectedQuote[]): string {
  const more = rejected.length > 1 ? ` (and ${rejected.length - 1} more)` : '';
  return `left out ${describeRejected(rejected[0]!)}${more}`;
}

export function useTicker(client: TickbookClient, status: StatusBoard, options: TickerOptions) {
  const now = options.now ?? Date.now;
  // Kept outside the owner's state: a poll draws the panes that select from it, not the owner.
  const [live] = useState(() => new ExternalState(tickerReducer, initialTickerState(options.watchlist, options.intervalS)));
  const { dispatch, getState } = live;
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);
  const halted = useRef(false);
  /** A poll under way; kept out of state so that starting one costs no frame. */
  const inFlight = useRef(false);
  /** A poll asked for while one is under way (a symbol added) runs as soon as it ends. */
  const again = useRef(false);
  const pollRef = useRef<() => Promise<void>>(async () => undefined);
  /** Stops the poll under way; its answer, if it comes, is dropped, and the next may start. */
  const dropPoll = useCallback(() => {
    abort.current?.abort();
    inFlight.current = false;
  }, []);
  const onPrices = useRef(options.onPrices);
  onPrices.current = options.onPrices;
  const extraSymbols = useRef(options.extraSymbols);
  extraSymbols.current = options.extraSymbols;
  const undoWindowMs = options.undoWindowMs ?? UNDO_WINDOW_MS;
  const undoClock = options.undoClock ?? monotonic;
  /** When the last removal can no longer be undone, on undoClock; its timer only wakes the check. */
  const undoDue = useRef<{ at: number; timer: NodeJS.Timeout | undefined } | undefined>(undefined);
  /** The removal's undo window over: said so in the state (the footer's offer goes with it). */
  const expireUndo = useCallback(() => {
    clearTimeout(undoDue.current?.timer);
    undoDue.current = undefined;
    dispatch({ type: 'removal-expired' });
  }, [dispatch]);
  /** Whether the last removal can still be undone now, by its clock; if not, it is let go. */
  const undoOpen = useCallback((): boolean => {
    const due = undoDue.current;
    if (due && undoClock() < due.at) return true;
    expireUndo();
    return false;
  }, [expireUndo, undoClock]);
  const armUndo = useCallback(
    (at: number) => {
      clearTimeout(undoDue.current?.timer);
      const due = { at, timer: undefined as NodeJS.Timeout | undefined };
      undoDue.current = due;
      const wake = () => {
        if (undoDue.current !== due) return;
        if (undoClock() < due.at) due.timer = setTimeout(wake, due.at - undoClock());
        else expireUndo();
      };
      due.timer = setTimeout(wake, Math.max(0, at - undoClock()));
    },
    [expireUndo, undoClock],
  );
  useEffect(() => () => clearTimeout(undoDue.current?.timer), []);

  const schedule = useCallback(
    (delayMs: number) => {
      clearTimeout(timer.current);
      const s = getState();
      if (s.paused || halted.current) {
        dispatch({ type: 'poll-scheduled', at: undefined });
        return;
      }
      dispatch({ type: 'poll-scheduled', at: now() + delayMs });
      timer.current = setTimeout(() => void pollRef.current(), delayMs);
    },
    [dispatch, getState, now],
  );

  // The lists and interval as last saved or taken in from the file: a change from these is this
  // window's own, and is saved.
  const settingsSaved = useRef({ lists: getState().lists, active: getState().active, intervalS: getState().intervalS });
  /** What the file holds now, where this window differs, taken in (it is what was just saved, or read). */
  const takeSettings = useCallback(
    (synced: SyncedSettings | void | undefined) => {
      if (!synced) return;
      if (synced.intervalS !== undefined) dispatch({ type: 'interval-set', seconds: synced.intervalS });
      if (synced.lists) dispatch({ type: 'lists-changed', lists: synced.lists });
      const s = getState();
      settingsSaved.current = { lists: s.lists, active: s.active, intervalS: s.intervalS };
      for (const note of synced.notes) status.notice(note);
    },
    [dispatch, getState, status],
  );
  const refresh = useRef(options.refresh);
  refresh.current = options.refresh;
  /** Others' saves taken in before each poll, so that it asks for the lists as they are now. */
  const refreshSettings = useCallback(() => {
    const s = getState();
    try {
      const synced = refresh.current?.({ lists: s.lists, active: s.active }, s.intervalS);
      if (synced === undefined) return;
      takeSettings(synced);
      status.recover('settings');
    } catch (error) {
      status.fail('settings', settingsFailure(error));
    }
  }, [getState, status, takeSettings]);

  const poll = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (halted.current) return;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    again.current = false;
    refreshSettings();
    const s: TickerState = getState();
    const extra = (extraSymbols.current?.() ?? []).filter((symbol) => !s.watchlist.includes(symbol));
    const asked = [...s.watchlist, ...extra];
    if (asked.length === 0) {
      schedule(s.intervalS * 1000);
      return;
    }
    inFlight.current = true;
    const controller = new AbortController();
    abort.current = controller;
    try {
      const result = await client.realtimePricing(asked, { signal: controller.signal });
      // Dropped by a switch of lists: the poll under way now is another one.
      if (controller.signal.aborted) return;
      inFlight.current = false;
      const at = now();
      dispatch({ type: 'poll-succeeded', result, at });
      onPrices.current?.(asked, result.quotes, at);
      // Bad records are left out and named; the rest of the watchlist keeps updating.
      if (result.rejected.length > 0) status.fail('ticker', `prices: ${leftOut(result.rejected)}`);
      else status.recover('ticker');
      schedule(again.current ? 0 : nextDelayMs(getState()));
    } catch (error) {
      if (controller.signal.aborted) return;
      inFlight.current = false;
      dispatch({ type: 'poll-failed' });
      onPrices.current?.(asked, undefined, now());
      const retryAfterMs = error instanceof ApiError ? error.retryAfterMs : undefined;
      const delay = nextDelayMs(getState(), retryAfterMs);
      status.fail('ticker', `prices: ${errorText(error)}`, now() + delay, error);
      schedule(delay);
    }
  }, [client, dispatch, getState, now, refreshSettings, schedule, status]);
  pollRef.current = poll;

  useEffect(() => {
    halted.current = false;
    void poll();
    return () => {
      halted.current = true;
      clearTimeout(timer.current);
      dropPoll();
    };
  }, [poll, dropPoll]);

  const suspend = useCallback(() => {
    halted.current = true;
    clearTimeout(timer.current);
    dropPoll();
  }, [dropPoll]);
  const resume = useCallback(() => {
    halted.current = false;
    void poll();
  }, [poll]);
  useLifecycle('suspend', suspend);
  useLifecycle('resume', resume);

  // Every change to the lists (their symbols, order, sort, names, which is shown) or the interval
  // is saved at once (unless given for this run), merged into the file as another window left it.
  const lists = useSelected(live, (s) => s.lists);
  const active = useSelected(live, (s) => s.active);
  const intervalS = useSelected(live, (s) => s.intervalS);
  const persist = options.persist;
  useEffect(() => {
    const was = settingsSaved.current;
    if (was.lists === lists && was.active === active && was.intervalS === intervalS) return;
    settingsSaved.current = { lists, active, intervalS };
    if (!persist) return;
    // Its own source: a poll that works says nothing about the config file. Failing the same way
    // again is one message, not one per key; each poll and the next change try again, and a save
    // that works clears it.
    try {
      const shown = getState().watchlist;
      takeSettings(persist({ lists, active }, intervalS));
      status.recover('settings');
      // A symbol another window added is priced now, not at the next tick.
      if (getState().watchlist !== shown) void pollRef.current();
    } catch (error) {
      status.fail('settings', settingsFailure(error));
    }
  }, [persist, lists, active, intervalS, status, getState, takeSettings]);

  const commands = useMemo(
    () => ({
      ...cursorCommands(dispatch),
      togglePause: () => {
        dispatch({ type: 'pause-toggled' });
        if (getState().paused) {
          clearTimeout(timer.current);
          dispatch({ type: 'poll-scheduled', at: undefined });
          status.notice('prices paused: Space resumes');
        } else {
          status.notice('prices resumed');
          void poll();
        }
      },
      changeInterval: (by: number) => {
        dispatch({ type: 'interval-changed', by });
        const s = getState();
        status.notice(`prices every ${s.intervalS}s`);
        if (!inFlight.current && !s.paused && s.failures === 0) schedule(s.intervalS * 1000);
      },
      cycleSort: () => dispatch({ type: 'sort-cycled' }),
      flipSort: () => dispatch({ type: 'sort-flipped' }),
      /** An alert on `symbol` fired: its row stands out a moment. */
      alerted: (symbol: string, at: number) => dispatch({ type: 'alert-fired', symbol, at }),
      setColumns: (columns: ColumnName[]) => dispatch({ type: 'columns-changed', columns }),
      /** The lists as they are now, for the lists menu. */
      lists: (): Watchlists => ({ lists: getState().lists, active: getState().active }),
      /**
       * The lists made, renamed, removed or a symbol moved; when another list is shown, an answer
       * still coming for the one left behind is dropped and the new one's prices asked at once.
       */
      changeLists: (lists: Watchlists) => {
        const before = getState();
        const switched = !isSameList(before, lists.lists[lists.active]!);
        dispatch({ type: 'lists-changed', lists });
        const after = getState();
        if (switched) status.notice(`showing ${after.lists[after.active]!.name}`);
        if (after.watchlist === before.watchlist) return;
        dropPoll();
        // While a 429 or failures have polls waiting, the new list waits its turn as well (from
        // now: never sooner than the server asked): holding ] must not send a request per key.
        if (after.failures > 0) schedule(Math.max(nextDelayMs(after), (after.nextPollAt ?? 0) - now()));
        else void poll();
      },
      moveSymbol: (by: number) => {
        const s = getState();
        if (s.sort !== 'watchlist' || s.descending) {
          status.notice(
            s.sort === 'watchlist' ? 'J/K reorder the watchlist in watchlist order, not reversed: press S' : 'J/K reorder the watchlist in watchlist order: press s to get there',
          );
          return;
        }
        dispatch({ type: 'symbol-moved', by });
      },
      remove: () => {
        const before = getState().watchlist.length;
        dispatch({ type: 'symbol-removed' });
        const removed = getState().removed;
        if (!removed || getState().watchlist.length >= before) return;
        armUndo(undoClock() + undoWindowMs);
        status.notice(`removed ${removed.symbol}: u puts it back`);
      },
      undo: () => {
        const removed = getState().removed;
        if (!removed || !undoOpen()) return;
        clearTimeout(undoDue.current?.timer);
        undoDue.current = undefined;
        dispatch({ type: 'removal-undone' });
        status.notice(`${removed.symbol} is back`);
        void poll();
      },
      add: (symbol: string) => {
        if (getState().watchlist.includes(symbol)) return false;
        dispatch({ type: 'symbol-added', symbol });
        status.notice(`added ${symbol}`);
        // The new symbol's price should not wait for the next tick.
        void poll();
        return true;
      },
      refresh: () => void poll(),
      /** Highlights `symbol`'s row, where it is on the watchlist as shown. */
      select: (symbol: string) => {
        const index = displayOrder(getState()).indexOf(symbol);
        if (index >= 0) dispatch({ type: 'cursor-to', index });
      },
    }),
    [armUndo, dispatch, dropPoll, getState, now, poll, schedule, status, undoClock, undoOpen, undoWindowMs],
  );

  return { live, commands, getState, intervalS };
}

export type TickerCommands = ReturnType<typeof useTicker>['commands'];
