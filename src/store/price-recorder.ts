// The history store as the dashboard, `quote --watch` and `alerts watch` use it: opened when asked
// (the dashboard asks after its first frame), compacted in the background a slice at a time, and
// never a reason for any of them to stop: a history that cannot be opened or written is said once,
// and prices go on. A file any statement finds damaged is moved aside and a new one started
// (keeping the alerts and lots it still lets be read), and the statement runs again on it. A file
// another process holds locked, or on a full disk, is a trouble that lasts (onTrouble) until it is
// over: the opening is tried again on a timer, the polls not yet recorded are kept and written
// with the next, and recording and the alerts go on by themselves once the file can be used.
import { dataDirOrigin } from '../config/paths.js';
import type { Bar } from '../market/bars.js';
import { barStart } from '../market/bars.js';
// Only its types here: SQLite's addon is loaded when the file is opened, after the first frame.
import type { Quote } from '../api/types.js';
import type { HistoryStore, PricePoint } from './history-store.js';
import { isBusy, isDamage, isFullDisk, sqliteCause } from '../sqlite/problems.js';
import { historyFailure } from './history-failure.js';
import { historyPath } from './history-source.js';
import { AlertWatch, alertsOf, type AlertsStore, type Firing } from './alerts-store.js';
import { holdingsOf, type HoldingsStore } from './holdings-store.js';
import { contactIndexOf, type ContactIndex } from './contact-index.js';

/** What the detail view reads. */
export interface HistoryReader {
  /** Whether prices are being recorded; false until the file is open, and when it cannot be. */
  readonly recording: boolean;
  /** Why not, once it is known that they cannot be. */
  readonly unavailable: string | undefined;
  points(symbol: string, from: number, to: number, maxPoints: number): PricePoint[];
  /** The bar of the day `at` falls in, as recorded. */
  day(symbol: string, at: number): Bar | undefined;
  earliest(symbol: string): number | undefined;
  /** The price lines of the symbol's live alerts (above, below), drawn across its chart. */
  alertLevels(symbol: string): number[];
}

/** The alerts and holdings kept with the history, and the server they are kept for. */
export interface Books {
  alerts: AlertsStore;
  holdings: HoldingsStore;
  /** The contact lists as last read, for searching them whole (keyed by their own source). */
  contacts: ContactIndex;
  source: string;
}

/** What the dashboard asks of the history: recording, reading, and the alerts. */
export interface HistoryService extends HistoryReader {
  record(quotes: readonly Quote[], at: number): void;
  alertSymbols(): string[];
  alertsOnPoll(asked: readonly string[], quotes: readonly Quote[] | undefined, at: number): Firing[];
  /** The alerts and holdings; undefined until the file is open (or when it cannot be). Their writes throw. */
  books(): Books | undefined;
  /** Each symbol's first recorded price of the day `at` falls in (the day's open), for all symbols in one read. */
  dayOpens(at: number): Map<string, number>;
}

export interface PriceRecorderOptions {
  /** The market-data server, as historySource() names it. */
  source: string;
  path?: string;
  /** Told once per kind of trouble: a file moved aside, a history that cannot be opened or written. */
  onWarning: (warning: string) => void;
  /**
   * Told when the file cannot be used for a while (another process holds it locked, the disk is
   * full), in words, with when the opening is next tried (Date.now's clock) when it is that which
   * waits; and told undefined once recording works again.
   */
  onTrouble?: (trouble: string | undefined, retryAt?: number) => void;
  /** Between tries to open a file that was held or full (5 s). */
  retryEveryMs?: number;
  /** How long a statement waits for another process's lock before the file counts as held (2 s). */
  lockWaitMs?: number;
  now?: () => number;
  /** Between compaction runs (a slice each, yielding between). */
  compactEveryMs?: number;
  /** Between checkpoints of the write-ahead log. */
  checkpointEveryMs?: number;
  /** What cannot be done when the file cannot be used, in words (see HistoryOpenError). */
  doing?: string;
}

/** Polls not yet recorded (before the file opens, while it is held or full) are kept, the newest this many. */
const PENDING_POLLS = 60;

export class PriceRecorder implements HistoryService {
  readonly #options: PriceRecorderOptions;
  readonly #now: () => number;
  /** The store's module, loaded with SQLite's addon when the file is first opened. */
  #module: typeof import('./history-store.js') | undefined;
  #store: HistoryStore | undefined;
  /** `retrying`: the opening found the file held or full, and is tried again on a timer. */
  #state: 'waiting' | 'retrying' | 'open' | 'off' | 'closed' = 'waiting';
  #pending: { quotes: readonly Quote[]; at: number }[] = [];
  /** What keeps the file from being used now, while that lasts. */
  #trouble: string | undefined;
  #retry: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  #checkpoints: NodeJS.Timeout | undefined;
  #lastWarning: string | undefined;
  #unavailable: string | undefined;
  #alerts: AlertWatch | undefined;
  #holdings: HoldingsStore | undefined;
  #contacts: ContactIndex | undefined;
  /** The books handed out: they call the stores of whichever file is open at the time. */
  #books: Omit<Books, 'source'> | undefined;

  constructor(options: PriceRecorderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Where the history is kept. */
  get path(): string {
    return this.#options.path ?? historyPath();
  }

  /**
   * Opens the file (once) and starts compacting; a history that cannot be had is said, not thrown,
   * unless `required` (alerts watch, which is nothing without it).
   */
  async open({ required = false } = {}): Promise<void> {
    if (this.#state !== 'waiting') return;
    try {
      this.#module ??= await import('./history-store.js');
    } catch (error) {
      this.#cannot(error, required);
      return;
    }
    // Closed while the module loaded.
    if (this.#state === 'waiting') this.#tryOpen(required);
  }

  /** Opens the file: a file held or full is tried again in retryEveryMs; anything else ends recording. */
  #tryOpen(required: boolean): void {
    let store: HistoryStore;
    try {
      store = this.#module!.openHistoryStore(this.path, {
        ...this.#storeOptions(),
        directoryOrigin: this.#options.path ? 'the history path' : dataDirOrigin(),
        // Tried again while it is held: a try that fails costs nothing.
        busyTimeoutMs: this.#lockWait(),
      });
    } catch (error) {
      if (!this.#held(error)) {
        this.#cannot(error, required);
        return;
      }
      this.#state = 'retrying';
      const every = this.#options.retryEveryMs ?? 5000;
      this.#setTrouble(this.#troubleOf(error), Date.now() + every);
      this.#retry = setTimeout(() => this.#state === 'retrying' && this.#tryOpen(false), every);
      this.#retry.unref();
      return;
    }
    this.#store = store;
    this.#state = 'open';
    // Opened: what held it has let go (a poll that finds it held still says so again).
    this.#setTrouble(undefined);
    this.#flush();
    this.#compactSoon(0);
    // Between polls, on its own turn of the event loop; never keeping a process alive.
    this.#checkpoints = setInterval(() => this.#checkpoint(), this.#options.checkpointEveryMs ?? 30_000);
    this.#checkpoints.unref();
  }

  /** The history cannot be had: said (or thrown, when `required`), and nothing more is tried. */
  #cannot(error: unknown, required: boolean): void {
    this.#state = 'off';
    this.#pending = [];
    this.#unavailable = (error as Error).message;
    this.#setTrouble(undefined);
    if (required) throw error;
    this.#warn(`price history not recorded: ${(error as Error).message}`);
  }

  /** Whether `error` is one that passes: another process holding the file locked, a full disk. */
  #held(error: unknown): boolean {
    const cause = sqliteCause(error);
    return isBusy(cause) || isFullDisk(cause, this.path);
  }

  #troubleOf(error: unknown): string {
    return isBusy(sqliteCause(error))
      ? `price history busy: another process holds ${this.path}; recording and alerts wait for it`
      : `price history not recorded in ${this.path}: the disk is full; recording and alerts wait for room`;
  }

  /** The file found held or full by a statement: said until a write works, and tried without waiting meanwhile. */
  #hold(error: unknown): void {
    this.#setTrouble(this.#troubleOf(error));
  }

  #setTrouble(trouble: string | undefined, retryAt?: number): void {
    if (trouble === this.#trouble && retryAt === undefined) return;
    const was = this.#trouble;
    this.#trouble = trouble;
    if ((was === undefined) !== (trouble === undefined)) this.#store?.waitForLocks(this.#lockWait());
    this.#options.onTrouble?.(trouble, retryAt);
  }

  /** How long a statement waits for another process's lock: not at all while the file is known to be held. */
  #lockWait(): number {
    return this.#trouble === undefined ? (this.#options.lockWaitMs ?? 2000) : 0;
  }

  #storeOptions() {
    return { onWarning: (warning: string) => this.#warn(warning), now: this.#now, ...(this.#options.doing !== undefined && { doing: this.#options.doing }) };
  }

  /**
   * `op` on the open store; when it finds the file damaged, the file is moved aside and a new one
   * started (replaceDamaged), and `op` runs again on that. What fails otherwise is thrown.
   */
  #attempt<T>(op: (store: HistoryStore) => T): T {
    const store = this.#store!;
    try {
      return op(store);
    } catch (error) {
      if (!isDamage(error) || this.#store !== store) throw error;
      this.#replace(error);
      return op(this.#store!);
    }
  }

  /**
   * The file at the path opened again, in place of the one moved away from it, with nothing carried
   * over: the process that moved it copied what was the user's, and the polls go on into the new one.
   */
  #reopen(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#checkpoints);
    const moved = this.#letGo();
    try {
      moved.close();
    } catch {
      // Closing what was moved away may fail on its way out (a checkpoint): nothing of it is needed.
    }
    this.#state = 'waiting';
    this.#warn(`the price history ${this.path} was moved aside or removed by another process: recording goes on in the file there now`);
    this.#tryOpen(false);
  }

  /** The open store, no longer this recorder's: the alerts', lots' and contacts' statements are its connection's, and go with it. */
  #letGo(): HistoryStore {
    this.#alerts = undefined;
    this.#holdings = undefined;
    this.#contacts = undefined;
    const store = this.#store!;
    this.#store = undefined;
    return store;
  }

  #replace(error: unknown): void {
    const damaged = this.#letGo();
    try {
      this.#store = this.#module!.replaceDamaged(damaged, error, this.#storeOptions());
    } catch (failure) {
      this.#cannot(failure, false);
      throw failure;
    }
    this.#store.waitForLocks(this.#lockWait());
  }

  #checkpoint(): void {
    if (this.#state !== 'open') return;
    // Another process that found the file damaged moves it aside and starts a new one (or the
    // user removed it): what this process writes to the file it has open would be lost from the
    // history. Looked at here, between polls (a stat), not at every poll.
    if (this.#module!.movedAway(this.#store!)) {
      this.#reopen();
      return;
    }
    try {
      this.#attempt((store) => store.checkpoint());
    } catch {
      // Busy with another process's write, or the disk: the next checkpoint catches up, and a
      // disk that fails says so on the next poll's write.
    }
  }

  /**
   * Records one poll's prices (all or none). While the file is not open yet, or is held or full,
   * the poll is kept and written (after those kept before it) as soon as a write works.
   */
  record(quotes: readonly Quote[], at: number): void {
    if (this.#state === 'open' && this.#trouble === undefined) {
      try {
        this.#attempt((store) => store.record(this.#options.source, quotes, at));
        this.#lastWarning = undefined;
      } catch (error) {
        if (this.#held(error)) this.#pending.push({ quotes, at });
        this.#fail(error, 'record price history in');
      }
      return;
    }
    if (this.#state !== 'waiting' && this.#state !== 'retrying' && this.#state !== 'open') return;
    this.#pending.push({ quotes, at });
    if (this.#pending.length > PENDING_POLLS) this.#pending.shift();
    if (this.#state === 'open') this.#flush();
  }

  /**
   * Writes the polls kept, oldest first, each in its own transaction, and stops at the first that
   * finds the file held or full (it and the rest wait for the next try). Once a poll's prices are
   * written the trouble is over: recording, and with it the alerts, works again.
   */
  #flush(): void {
    let wrote = false;
    while (this.#pending.length > 0) {
      const { quotes, at } = this.#pending[0]!;
      try {
        this.#attempt((store) => store.record(this.#options.source, quotes, at));
        wrote ||= quotes.length > 0;
        this.#lastWarning = undefined;
      } catch (error) {
        // Held or full: it and the rest wait for the next try. Refused for good (a read-only file
        // system): said, and not tried again.
        const held = this.#held(error);
        this.#fail(error, 'record price history in');
        if (held || this.#state !== 'open') return;
      }
      this.#pending.shift();
    }
    if (wrote) this.#setTrouble(undefined);
  }

  /**
   * What a statement's failure means: the file held or full is the trouble, said until it is over;
   * anything else is a warning naming the file ("cannot record price history in …: it is
   * read-only"), unless it ended recording (said then).
   */
  #fail(error: unknown, doing: string): void {
    if (this.#held(error)) this.#hold(error);
    else if (this.#state === 'open') this.#warn(((this.#module ? historyFailure(this.path, error, doing, this.#lockWait()) : error) as Error).message);
  }

  alertLevels(symbol: string): number[] {
    return this.#read(
      () =>
        this.#alertWatch()
          .alerts.list(this.#options.source)
          .filter((a) => a.symbol === symbol && !a.paused && !a.done)
          .flatMap((a) => (a.condition.kind === 'above' || a.condition.kind === 'below' ? [a.condition.price] : [])),
      [],
    );
  }

  /** The symbols of the alerts that can fire, which the ticker asks for besides its list. */
  alertSymbols(): string[] {
    return this.#read(() => this.#alertWatch().symbols(), []);
  }

  /** Steps the alerts on a poll's answer (or, without one, a failed poll); returns what fired. */
  alertsOnPoll(asked: readonly string[], quotes: readonly Quote[] | undefined, at: number): Firing[] {
    return this.#read(
      () => (quotes === undefined ? this.#alertWatch().failed(at) : this.#alertWatch().polled(asked, new Map(quotes.map((q) => [q.symbol, q.price])), at)),
      [],
    );
  }

  books(): Books | undefined {
    if (this.#state !== 'open') return undefined;
    this.#books ??= {
      alerts: this.#guarded(() => this.#alertWatch().alerts),
      holdings: this.#guarded(() => (this.#holdings ??= holdingsOf(this.#store!))),
      contacts: this.#guarded(() => (this.#contacts ??= contactIndexOf(this.#store!))),
    };
    return { ...this.#books, source: this.#options.source };
  }

  /**
   * The methods of the store `current` gives, each run through #attempt: a file one of them finds
   * damaged is replaced, and the call made again on the new file's store.
   */
  #guarded<T extends object>(current: () => T): T {
    const methods = Object.keys(current()) as (keyof T & string)[];
    const call = (name: keyof T & string, args: unknown[]) => {
      try {
        return this.#attempt(() => (current()[name] as (...a: unknown[]) => unknown)(...args));
      } catch (error) {
        if (this.#held(error)) this.#hold(error);
        // Said by the dashboard with what it was for: in words, naming the file.
        throw historyFailure(this.path, error, 'use', this.#lockWait());
      }
    };
    return Object.fromEntries(methods.map((name) => [name, (...args: unknown[]) => call(name, args)])) as T;
  }

  dayOpens(at: number): Map<string, number> {
    return this.#read((store) => {
      const opens = new Map<string, number>();
      for (const [symbol, day] of store.dayReferences(this.#options.source, barStart('day', at))) if (day.open !== undefined) opens.set(symbol, day.open);
      return opens;
    }, new Map());
  }

  #alertWatch(): AlertWatch {
    this.#alerts ??= new AlertWatch(alertsOf(this.#store!), this.#store!, this.#options.source);
    return this.#alerts;
  }

  points(symbol: string, from: number, to: number, maxPoints: number): PricePoint[] {
    return this.#read((store) => store.points(this.#options.source, symbol, from, to, maxPoints), []);
  }

  day(symbol: string, at: number): Bar | undefined {
    const start = barStart('day', at);
    return this.#read((store) => store.bars(this.#options.source, symbol, 'day', start, start)[0], undefined);
  }

  earliest(symbol: string): number | undefined {
    return this.#read((store) => store.earliest(this.#options.source, symbol), undefined);
  }

  /** Whether prices are being recorded (the file is open). */
  get recording(): boolean {
    return this.#state === 'open';
  }

  get unavailable(): string | undefined {
    return this.#unavailable;
  }

  close(): void {
    clearTimeout(this.#retry);
    clearTimeout(this.#timer);
    clearInterval(this.#checkpoints);
    const store = this.#store;
    this.#store = undefined;
    this.#state = 'closed';
    store?.close();
  }

  #read<T>(read: (store: HistoryStore) => T, nothing: T): T {
    if (this.#state !== 'open') return nothing;
    try {
      return this.#attempt(read);
    } catch (error) {
      // Held or full: said as the trouble; reading (and the alerts) try again next time.
      this.#fail(error, 'use');
      return nothing;
    }
  }

  /**
   * One slice, then the next on a later turn of the event loop, so that keys and frames go between;
   * every 50 slices and at the end, a checkpoint (also on a turn of its own), so that deleting a
   * long backlog does not grow the write-ahead log by hundreds of megabytes.
   */
  #compactSoon(delayMs: number, steps = 0): void {
    this.#timer = setTimeout(() => {
      if (this.#state !== 'open') return;
      let more = false;
      try {
        more = this.#attempt((store) => store.compactStep(this.#now()));
      } catch (error) {
        this.#fail(error, 'compact the price history in');
      }
      if ((more && (steps + 1) % 50 === 0) || (!more && steps > 0)) setImmediate(() => this.#checkpoint());
      this.#compactSoon(more ? 0 : (this.#options.compactEveryMs ?? 10 * 60_000), more ? steps + 1 : 0);
    }, delayMs);
    // Compacting never keeps a process alive that has nothing else to do.
    this.#timer.unref();
  }

  #warn(warning: string): void {
    if (warning === this.#lastWarning) return;
    this.#lastWarning = warning;
    this.#options.onWarning(warning);
  }
}
