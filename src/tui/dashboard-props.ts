// What the dashboard is given by whoever runs it (run.tsx, the tests): the client, where the
// settings and the history are kept, what the terminal can do for it, and the clocks tests shorten.
import { useEffect, useState } from 'react';
import type { TickbookClient } from '../api/client.js';
import type { SyncedSettings } from '../config/settings-sync.js';
import type { Watchlists } from '../market/watchlists.js';
import type { Firing } from '../store/alerts-store.js';
import type { HistoryService } from '../store/price-recorder.js';
import { WriteLedger } from './contacts/write-ledger.js';
import type { StatusBoard } from './state/status.js';
import type { ReaderOutput } from './reader/reader-output.js';
import type { TerminalSize } from './terminal/terminal-size.js';

export interface DashboardProps {
  client: TickbookClient;
  status: StatusBoard;
  /** Where requests go, in words without secrets: "sandbox (in-process)" or host names. */
  target: string;
  /** The saved lists, or symbols for this run. */
  watchlist: Watchlists | readonly string[];
  intervalS: number;
  /**
   * Saves the lists and interval as this window changed them; may give what the window should
   * hold now (others' saves merged in). Throws when they cannot be saved.
   */
  persistWatchlist?: ((lists: Watchlists, intervalS: number) => SyncedSettings | void) | undefined;
  /** Asked at each poll: what others saved since, merged with what this window has not saved yet (a save that failed is tried again). */
  refreshSettings?: ((lists: Watchlists, intervalS: number) => SyncedSettings | undefined) | undefined;
  /** The price history: every poll's prices are recorded in it, and the detail view's chart read from it. */
  history?: HistoryService | undefined;
  /** An alert fired: the terminal is told (bell, desktop notification), and the user's command run, by whoever owns them. */
  onAlert?: ((firing: Firing) => void) | undefined;
  /** The digits of a price that changed flash for a moment (the config's "motion"; default on). */
  motion?: boolean | undefined;
  /** The money columns start hidden (the config's "hide_money", which $ toggles). */
  hideMoney?: boolean | undefined;
  /** Keeps $'s choice for the next run; throws when it cannot be saved. */
  persistHideMoney?: ((hidden: boolean) => void) | undefined;
  /** The terminal reports the mouse at the start (O turns it off and on). */
  mouse?: boolean | undefined;
  /** Tells the terminal to report the mouse, or to stop (by whoever owns the terminal). */
  onMouse?: ((on: boolean) => void) | undefined;
  /** Keeps O's choice for the next run; throws when it cannot be saved. */
  persistMouse?: ((on: boolean) => void) | undefined;
  /** The name the contact list is indexed under in the history file (contactsSource): whole-list search. */
  contactsSource?: string | undefined;
  /** Where x writes exported contacts (the config's export_dir, else Downloads or home). */
  exportDir?: string | undefined;
  /** Puts text on the clipboard (OSC 52, by whoever owns the terminal). */
  onCopy?: ((text: string) => void) | undefined;
  /** Ctrl-Z: hand the terminal back to the shell until `fg`. */
  onSuspend?: (() => void) | undefined;
  /**
   * A second Ctrl-C while quitting waits for the server: the terminal given back and the process
   * ended at once (by whoever owns them); without one, the app exits as it would anyway.
   */
  onLeaveNow?: (() => void) | undefined;
  /** A fixed size instead of the terminal's (tests). */
  size?: TerminalSize | undefined;
  /** How long a delete can be undone (tests shorten it). */
  undoWindowMs?: number | undefined;
  /**
   * Writes not yet at the server. Whoever runs the dashboard owns it and settles it on every way
   * out; without one, the dashboard keeps its own and drops what is held back when it goes.
   */
  ledger?: WriteLedger | undefined;
  /**
   * The dashboard is read by a screen reader (--screen-reader): nothing is drawn, and what changes
   * is said, appended, through this.
   */
  reader?: ReaderOutput | undefined;
}

/** The ledger given, or one of the dashboard's own for as long as it is mounted. */
export function useOwnLedger(given: WriteLedger | undefined): WriteLedger {
  const [own] = useState(() => (given ? undefined : new WriteLedger()));
  useEffect(() => () => own?.discard(), [own]);
  return given ?? own!;
}
