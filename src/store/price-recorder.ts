// The history store as the dashboard and `quote --watch` use it: opened when asked (the dashboard
// asks after its first frame), compacted in the background a slice at a time, and never a reason
// for either to stop: a history that cannot be opened or written is said once, and prices go on.
import { dataDirOrigin } from '../config/paths.js';
import type { Bar } from '../market/bars.js';
import { barStart } from '../market/bars.js';
// Only its types here: SQLite's addon is loaded when the file is opened, after the first frame.
import type { Quote } from '../api/types.js';
import type { HistoryStore, PricePoint } from './history-store.js';
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
  now?: () => number;
  /** Between compaction runs (a slice each, yielding between). */
  compactEveryMs?: number;
  /** Between checkpoints of the write-ahead log. */
  checkpointEveryMs?: number;
  /** A store the caller has open on the file (one connection a process): used, not closed. */
  store?: HistoryStore | undefined;
}

/** Polls that arrive before the file is open are kept until it is, this many at most. */
const EARLY_POLLS = 20;

export class PriceRecorder implements HistoryService {
  readonly #options: PriceRecorderOptions;
  readonly #now: () => number;
  #store: HistoryStore | undefined;
  #state: 'waiting' | 'open' | 'off' | 'closed' = 'waiting';
  #early: { quotes: readonly Quote[]; at: number }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #checkpoints: NodeJS.Timeout | undefined;
  #lastWarning: string | undefined;
  #unavailable: string | undefined;
  #alerts: AlertWatch | undefined;
  #holdings: HoldingsStore | undefined;
  #contacts: ContactIndex | undefined;

  constructor(options: PriceRecorderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Where the history is kept. */
  get path(): string {
    return this.#options.path ?? historyPath();
  }

  /** Opens the file (once) and starts compacting; a history that cannot be had is said, not thrown. */
  async open(): Promise<void> {
    if (this.#state !== 'waiting') return;
    try {
      const given = this.#options.store;
      const { openHistoryStore } = given ? { openHistoryStore: () => given } : await import('./history-store.js');
      // Closed while the module loaded.
      if (this.#state !== 'waiting') return;
      this.#store = openHistoryStore(this.path, {
        onWarning: (warning) => this.#warn(warning),
        directoryOrigin: this.#options.path ? 'the history path' : dataDirOrigin(),
        now: this.#now,
      });
    } catch (error) {
      this.#state = 'off';
      this.#early = [];
      this.#unavailable = (error as Error).message;
      this.#warn(`price history not recorded: ${(error as Error).message}`);
      return;
    }
    this.#state = 'open';
    for (const { quotes, at } of this.#early.splice(0)) this.record(quotes, at);
    this.#compactSoon(0);
    // Between polls, on its own turn of the event loop; never keeping a process alive.
    this.#checkpoints = setInterval(() => this.#checkpoint(), this.#options.checkpointEveryMs ?? 30_000);
    this.#checkpoints.unref();
  }

  #checkpoint(): void {
    try {
      this.#store?.checkpoint();
    } catch {
      // Busy with another process's write, or the disk: the next checkpoint catches up, and a
      // disk that fails says so on the next poll's write.
    }
  }

  /** Records one poll's prices (all or none). */
  record(quotes: readonly Quote[], at: number): void {
    if (this.#state === 'waiting') {
      if (this.#early.length < EARLY_POLLS) this.#early.push({ quotes, at });
      return;
    }
    if (this.#state !== 'open') return;
    try {
      this.#store!.record(this.#options.source, quotes, at);
      this.#lastWarning = undefined;
    } catch (error) {
      // A busy or full disk now may be gone by the next poll: said once, tried again each poll.
      this.#warn(`price history not recorded: ${(error as Error).message}`);
    }
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
    this.#holdings ??= holdingsOf(this.#store!);
    this.#contacts ??= contactIndexOf(this.#store!);
    return { alerts: this.#alertWatch().alerts, holdings: this.#holdings, contacts: this.#contacts, source: this.#options.source };
  }

  dayOpens(at: number): Map<string, number> {
    return this.#read(() => {
      const opens = new Map<string, number>();
      for (const [symbol, day] of this.#store!.dayReferences(this.#options.source, barStart('day', at))) if (day.open !== undefined) opens.set(symbol, day.open);
      return opens;
    }, new Map());
  }

  #alertWatch(): AlertWatch {
    this.#alerts ??= new AlertWatch(alertsOf(this.#store!), this.#store!, this.#options.source);
    return this.#alerts;
  }

  points(symbol: string, from: number, to: number, maxPoints: number): PricePoint[] {
    return this.#read(() => this.#store!.points(this.#options.source, symbol, from, to, maxPoints), []);
  }

  day(symbol: string, at: number): Bar | undefined {
    const start = barStart('day', at);
    return this.#read(() => this.#store!.bars(this.#options.source, symbol, 'day', start, start)[0], undefined);
  }

  earliest(symbol: string): number | undefined {
    return this.#read(() => this.#store!.earliest(this.#options.source, symbol), undefined);
  }

  /** Whether prices are being recorded (the file is open). */
  get recording(): boolean {
    return this.#state === 'open';
  }

  get unavailable(): string | undefined {
    return this.#unavailable;
  }

  close(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#checkpoints);
    const store = this.#store;
    this.#store = undefined;
    this.#state = 'closed';
    if (store !== this.#options.store) store?.close();
  }

  #read<T>(read: () => T, nothing: T): T {
    if (this.#state !== 'open') return nothing;
    try {
      return read();
    } catch (error) {
      this.#warn(`price history not read: ${(error as Error).message}`);
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
        more = this.#store!.compactStep(this.#now());
      } catch (error) {
        this.#warn(`price history not compacted: ${(error as Error).message}`);
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
