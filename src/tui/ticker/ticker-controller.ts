// The ticker's controller: the polling (one poll at a time, the next scheduled only after the last
// one ends, paused on request or while suspended, backing off on errors and as a 429 asks), the
// lists and interval saved as they change, and the undo of a removed symbol. A class outside
// React: it holds the state (an ExternalState the ticker pane selects from, LiveTickerPane.tsx)
// and what a poll or an undo window has under way, and every command reads the latest state.
import type { TickbookClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { ConfigSaveError } from '../../config/config-file.js';
import { ConfigReadError, type SyncedSettings } from '../../config/settings-sync.js';
import { describeRejected, type Quote, type RejectedQuote } from '../../api/types.js';
import type { StatusBoard } from '../state/status.js';
import { errorText } from '../state/error-text.js';
import { cursorCommands } from '../state/cursor-commands.js';
import { ExternalState } from '../state/external-state.js';
import type { ColumnName, Watchlists } from '../../market/watchlists.js';
import { displayOrder, initialTickerState, isSameList, nextDelayMs, tickerReducer, type TickerAction, type TickerState } from './ticker-state.js';
import { UNDO_WINDOW_MS } from '../contacts/contacts-state.js';
import { type Clock, monotonic } from '../contacts/write-ledger.js';

/** What the ticker tells and asks of others: given again by its owner whenever they may have changed. */
export interface TickerCallbacks {
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
}

export interface TickerOptions extends TickerCallbacks {
  /** The saved lists, or symbols for this run. */
  watchlist: Watchlists | readonly string[];
  intervalS: number;
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

/** The lists and interval as last saved or taken in: a change from these is this window's own, and is saved. */
interface Settings {
  lists: TickerState['lists'];
  active: number;
  intervalS: number;
}

const settingsOf = (s: TickerState): Settings => ({ lists: s.lists, active: s.active, intervalS: s.intervalS });
const sameSettings = (a: Settings, b: Settings): boolean => a.lists === b.lists && a.active === b.active && a.intervalS === b.intervalS;

export class TickerController {
  readonly #client: TickbookClient;
  readonly #status: StatusBoard;
  readonly #now: () => number;
  readonly #undoWindowMs: number;
  readonly #undoClock: Clock;
  /** Kept outside the owner's state: a poll draws the panes that select from it, not the owner. */
  readonly #state: ExternalState<TickerState, TickerAction>;
  #callbacks: TickerCallbacks;
  #timer: NodeJS.Timeout | undefined;
  #abort: AbortController | undefined;
  /** Not started, suspended or disposed: nothing polls. */
  #halted = true;
  /** A poll under way; kept out of state so that starting one costs no frame. */
  #inFlight = false;
  /** A poll asked for while one is under way (a symbol added) runs as soon as it ends. */
  #again = false;
  /** When the last removal can no longer be undone, on the undo clock; its timer only wakes the check. */
  #undoDue: { at: number; timer: NodeJS.Timeout | undefined } | undefined;
  #settingsSaved: Settings;
  /** A save of the settings is due once the commands under way are done (one save for a batch of keys). */
  #saveDue = false;
  #unwatchSettings: (() => void) | undefined;

  constructor(client: TickbookClient, status: StatusBoard, { watchlist, intervalS, now = Date.now, undoWindowMs = UNDO_WINDOW_MS, undoClock = monotonic, ...callbacks }: TickerOptions) {
    this.#client = client;
    this.#status = status;
    this.#now = now;
    this.#undoWindowMs = undoWindowMs;
    this.#undoClock = undoClock;
    this.#callbacks = callbacks;
    this.#state = new ExternalState(tickerReducer, initialTickerState(watchlist, intervalS));
    this.#settingsSaved = settingsOf(this.getState());
  }

  /** The latest state: what the commands before this one left. */
  readonly getState = (): TickerState => this.#state.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#state.subscribe(listener);
  readonly #dispatch = (action: TickerAction): void => this.#state.dispatch(action);

  /** The callbacks as the owner has them now: each is read when it is called, never an older one. */
  readonly setCallbacks = ({ persist, refresh, onPrices, extraSymbols }: TickerCallbacks): void => {
    this.#callbacks = { persist, refresh, onPrices, extraSymbols };
  };

  /** The first poll; each poll schedules the next. Changes to the lists and interval are saved from now on. */
  readonly start = (): void => {
    this.#unwatchSettings ??= this.#state.subscribe(this.#settingsMayHaveChanged);
    this.resume();
  };

  /** Nothing polls any more, and no undo window wakes. */
  readonly dispose = (): void => {
    this.#unwatchSettings?.();
    this.#unwatchSettings = undefined;
    this.suspend();
    clearTimeout(this.#undoDue?.timer);
  };

  /** The terminal is the shell's: the poll under way is dropped and none is scheduled. */
  readonly suspend = (): void => {
    this.#halted = true;
    clearTimeout(this.#timer);
    this.#dropPoll();
  };

  /** Back from the shell: prices are asked for at once. */
  readonly resume = (): void => {
    this.#halted = false;
    void this.#poll();
  };

  /** Stops the poll under way; its answer, if it comes, is dropped, and the next may start. */
  #dropPoll(): void {
    this.#abort?.abort();
    this.#inFlight = false;
  }

  /** The removal's undo window over: said so in the state (the footer's offer goes with it). */
  #expireUndo(): void {
    clearTimeout(this.#undoDue?.timer);
    this.#undoDue = undefined;
    this.#dispatch({ type: 'removal-expired' });
  }

  /** Whether the last removal can still be undone now, by its clock; if not, it is let go. */
  #undoOpen(): boolean {
    const due = this.#undoDue;
    if (due && this.#undoClock() < due.at) return true;
    this.#expireUndo();
    return false;
  }

  #armUndo(at: number): void {
    clearTimeout(this.#undoDue?.timer);
    const due = { at, timer: undefined as NodeJS.Timeout | undefined };
    this.#undoDue = due;
    const wake = () => {
      if (this.#undoDue !== due) return;
      if (this.#undoClock() < due.at) due.timer = setTimeout(wake, due.at - this.#undoClock());
      else this.#expireUndo();
    };
    due.timer = setTimeout(wake, Math.max(0, at - this.#undoClock()));
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    const s = this.getState();
    if (s.paused || this.#halted) {
      this.#dispatch({ type: 'poll-scheduled', at: undefined });
      return;
    }
    this.#dispatch({ type: 'poll-scheduled', at: this.#now() + delayMs });
    this.#timer = setTimeout(() => void this.#poll(), delayMs);
  }

  /** What the file holds now, where this window differs, taken in (it is what was just saved, or read). */
  #takeSettings(synced: SyncedSettings | void | undefined): void {
    if (!synced) return;
    if (synced.intervalS !== undefined) this.#dispatch({ type: 'interval-set', seconds: synced.intervalS });
    if (synced.lists) this.#dispatch({ type: 'lists-changed', lists: synced.lists });
    this.#settingsSaved = settingsOf(this.getState());
    for (const note of synced.notes) this.#status.notice(note);
  }

  /** Others' saves taken in before each poll, so that it asks for the lists as they are now. */
  #refreshSettings(): void {
    const s = this.getState();
    try {
      const synced = this.#callbacks.refresh?.({ lists: s.lists, active: s.active }, s.intervalS);
      if (synced === undefined) return;
      this.#takeSettings(synced);
      this.#status.recover('settings');
    } catch (error) {
      this.#status.fail('settings', settingsFailure(error));
    }
  }

  // Every change to the lists (their symbols, order, sort, names, which is shown) or the interval
  // is saved (unless given for this run), merged into the file as another window left it: once
  // the commands under way are done, so that a batch of keys is one save, as it is one frame.
  readonly #settingsMayHaveChanged = (): void => {
    if (this.#saveDue || sameSettings(this.#settingsSaved, settingsOf(this.getState()))) return;
    this.#saveDue = true;
    queueMicrotask(this.#saveSettings);
  };

  readonly #saveSettings = (): void => {
    this.#saveDue = false;
    if (this.#unwatchSettings === undefined) return;
    const now = settingsOf(this.getState());
    if (sameSettings(this.#settingsSaved, now)) return;
    this.#settingsSaved = now;
    const persist = this.#callbacks.persist;
    if (!persist) return;
    // Its own source: a poll that works says nothing about the config file. Failing the same way
    // again is one message, not one per key; each poll and the next change try again, and a save
    // that works clears it.
    try {
      const shown = this.getState().watchlist;
      this.#takeSettings(persist({ lists: now.lists, active: now.active }, now.intervalS));
      this.#status.recover('settings');
      // A symbol another window added is priced now, not at the next tick.
      if (this.getState().watchlist !== shown) void this.#poll();
    } catch (error) {
      this.#status.fail('settings', settingsFailure(error));
    }
  };

  readonly #poll = async (): Promise<void> => {
    clearTimeout(this.#timer);
    if (this.#halted) return;
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    this.#again = false;
    this.#refreshSettings();
    const s = this.getState();
    const extra = (this.#callbacks.extraSymbols?.() ?? []).filter((symbol) => !s.watchlist.includes(symbol));
    const asked = [...s.watchlist, ...extra];
    if (asked.length === 0) {
      this.#schedule(s.intervalS * 1000);
      return;
    }
    this.#inFlight = true;
    const controller = new AbortController();
    this.#abort = controller;
    try {
      const result = await this.#client.realtimePricing(asked, { signal: controller.signal });
      // Dropped by a switch of lists: the poll under way now is another one.
      if (controller.signal.aborted) return;
      this.#inFlight = false;
      const at = this.#now();
      this.#dispatch({ type: 'poll-succeeded', result, at });
      this.#callbacks.onPrices?.(asked, result.quotes, at);
      // Bad records are left out and named; the rest of the watchlist keeps updating.
      if (result.rejected.length > 0) this.#status.fail('ticker', `prices: ${leftOut(result.rejected)}`);
      else this.#status.recover('ticker');
      this.#schedule(this.#again ? 0 : nextDelayMs(this.getState()));
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#inFlight = false;
      this.#dispatch({ type: 'poll-failed' });
      this.#callbacks.onPrices?.(asked, undefined, this.#now());
      const retryAfterMs = error instanceof ApiError ? error.retryAfterMs : undefined;
      const delay = nextDelayMs(this.getState(), retryAfterMs);
      this.#status.fail('ticker', `prices: ${errorText(error)}`, this.#now() + delay, error);
      this.#schedule(delay);
    }
  };

  readonly #cursor = cursorCommands((action) => this.#dispatch(action));
  readonly down = this.#cursor.down;
  readonly up = this.#cursor.up;
  readonly first = this.#cursor.first;
  readonly last = this.#cursor.last;

  readonly togglePause = (): void => {
    this.#dispatch({ type: 'pause-toggled' });
    if (this.getState().paused) {
      clearTimeout(this.#timer);
      this.#dispatch({ type: 'poll-scheduled', at: undefined });
      this.#status.notice('prices paused: Space resumes');
    } else {
      this.#status.notice('prices resumed');
      void this.#poll();
    }
  };

  readonly changeInterval = (by: number): void => {
    this.#dispatch({ type: 'interval-changed', by });
    const s = this.getState();
    this.#status.notice(`prices every ${s.intervalS}s`);
    if (!this.#inFlight && !s.paused && s.failures === 0) this.#schedule(s.intervalS * 1000);
  };

  readonly cycleSort = (): void => this.#dispatch({ type: 'sort-cycled' });
  readonly flipSort = (): void => this.#dispatch({ type: 'sort-flipped' });
  /** An alert on `symbol` fired: its row stands out a moment. */
  readonly alerted = (symbol: string, at: number): void => this.#dispatch({ type: 'alert-fired', symbol, at });
  readonly setColumns = (columns: ColumnName[]): void => this.#dispatch({ type: 'columns-changed', columns });
  /** The lists as they are now, for the lists menu. */
  readonly lists = (): Watchlists => ({ lists: this.getState().lists, active: this.getState().active });

  /**
   * The lists made, renamed, removed or a symbol moved; when another list is shown, an answer
   * still coming for the one left behind is dropped and the new one's prices asked at once.
   */
  readonly changeLists = (lists: Watchlists): void => {
    const before = this.getState();
    const switched = !isSameList(before, lists.lists[lists.active]!);
    this.#dispatch({ type: 'lists-changed', lists });
    const after = this.getState();
    if (switched) this.#status.notice(`showing ${after.lists[after.active]!.name}`);
    if (after.watchlist === before.watchlist) return;
    this.#dropPoll();
    // While a 429 or failures have polls waiting, the new list waits its turn as well (from
    // now: never sooner than the server asked): holding ] must not send a request per key.
    if (after.failures > 0) this.#schedule(Math.max(nextDelayMs(after), (after.nextPollAt ?? 0) - this.#now()));
    else void this.#poll();
  };

  readonly moveSymbol = (by: number): void => {
    const s = this.getState();
    if (s.sort !== 'watchlist' || s.descending) {
      this.#status.notice(
        s.sort === 'watchlist' ? 'J/K reorder the watchlist in watchlist order, not reversed: press S' : 'J/K reorder the watchlist in watchlist order: press s to get there',
      );
      return;
    }
    this.#dispatch({ type: 'symbol-moved', by });
  };

  readonly remove = (): void => {
    const before = this.getState().watchlist.length;
    this.#dispatch({ type: 'symbol-removed' });
    const removed = this.getState().removed;
    if (!removed || this.getState().watchlist.length >= before) return;
    this.#armUndo(this.#undoClock() + this.#undoWindowMs);
    this.#status.notice(`removed ${removed.symbol}: u puts it back`);
  };

  readonly undo = (): void => {
    const removed = this.getState().removed;
    if (!removed || !this.#undoOpen()) return;
    clearTimeout(this.#undoDue?.timer);
    this.#undoDue = undefined;
    this.#dispatch({ type: 'removal-undone' });
    this.#status.notice(`${removed.symbol} is back`);
    void this.#poll();
  };

  /** Puts `symbol` on the list shown; false if it is there already. */
  readonly add = (symbol: string): boolean => {
    if (this.getState().watchlist.includes(symbol)) return false;
    this.#dispatch({ type: 'symbol-added', symbol });
    const s = this.getState();
    this.#status.notice(`added ${symbol} to ${s.lists[s.active]!.name}`);
    // The new symbol's price should not wait for the next tick.
    void this.#poll();
    return true;
  };

  readonly refresh = (): void => void this.#poll();

  /** Highlights `symbol`'s row, where it is on the watchlist as shown. */
  readonly select = (symbol: string): void => {
    const index = displayOrder(this.getState()).indexOf(symbol);
    if (index >= 0) this.#dispatch({ type: 'cursor-to', index });
  };
}
