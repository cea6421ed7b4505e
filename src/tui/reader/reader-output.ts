// What the terminal is sent for a screen reader: lines appended, each said once, never a row
// rewritten. A reader reading the terminal in order (Orca, speakup, NVDA, VoiceOver, Emacspeak)
// then hears what changed and nothing else: the place and the selection as the keys move them,
// every notice (a confirmation, an alert) as it comes, an error once and its end once, and a
// price only when asked for (t), or every N seconds when the user set that. A field being typed
// into is the last line, echoed as a shell echoes it (field-echo.ts), the cursor in it.
import type { Timers } from '../contacts/write-ledger.js';
import type { Source, StatusBoard, StatusMessage } from '../state/status.js';
import { sanitize } from '../../text/sanitize.js';
import { fieldEcho, fieldShown } from './field-echo.js';
import { type ReaderField, type ReaderScreen, type Said, screenLines } from './reader-screen.js';
import { countWords } from './spoken-words.js';

/** How long typing must pause before what it changed (the best match) is said: not between letters. */
export const QUIET_MS = 700;

/** What is said when a source's error has passed. */
const RECOVERED: Record<Source, string> = {
  contacts: 'contacts answer again',
  ticker: 'prices are coming in again',
  symbols: 'the symbol list answers again',
  settings: 'settings are saved again',
  history: 'the price history is recorded again',
};

export interface ReaderOutputOptions {
  /** Where the bytes go: the terminal. */
  write: (bytes: string) => void;
  status: StatusBoard;
  /** How text reaches a terminal that cannot draw it all (ASCII); as it is by default. */
  shown?: ((text: string) => string) | undefined;
  timers: Timers;
  now: () => number;
  /** Read the selected price every this many seconds when it changed; 0 or none: only when asked. */
  readPricesEveryS?: number | undefined;
}

export class ReaderOutput {
  readonly #o: ReaderOutputOptions;
  readonly #shown: (text: string) => string;
  #screen: ReaderScreen | undefined;
  /** The field on the terminal's last line, as drawn, the cursor at its cursor. */
  #field: ReaderField | undefined;
  /** Lines a field's edit brought, held until typing pauses; only the latest edit's. */
  #quiet: { lines: string[]; timer: unknown } | undefined;
  readonly #heard = new WeakSet<StatusMessage>();
  #errors: ReadonlyMap<Source, string> = new Map();
  #unsubscribe: (() => void) | undefined;
  #priceTimer: unknown;
  #lastPrice: string | undefined;
  /**
   * The selected symbol's price in words, keyed by the symbol and the price (the clock reads it
   * again only when that changed), set by the dashboard; undefined with none selected.
   */
  price: () => Said | undefined = () => undefined;

  constructor(options: ReaderOutputOptions) {
    this.#o = options;
    this.#shown = options.shown ?? ((text) => text);
  }

  /** Starts listening to the status board and the price clock; says how to begin. */
  start(): void {
    const { status } = this.#o;
    for (const message of status.getSnapshot().history) this.#heard.add(message);
    this.#errors = status.standing();
    this.#unsubscribe = status.subscribe(this.#statusChanged);
    this.say('tickbook, for a screen reader. Tab changes pane, question mark says the keys, t reads the selected price, o says where you are, q quits.');
    this.#armPrices();
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#priceTimer !== undefined) this.#o.timers.clear(this.#priceTimer);
    this.#priceTimer = undefined;
    this.#dropQuiet();
    this.#leaveField();
  }

  /** The dashboard as it is now: says what changed since the last. */
  show(screen: ReaderScreen): void {
    const lines = screenLines(this.#screen, screen);
    this.#screen = screen;
    const field = screen.field;
    const sameField = field !== undefined && this.#field?.key === field.key;
    if (sameField && lines.length > 0) {
      // Said while typing pauses: the best match after each letter would drown the letters.
      this.#dropQuiet();
      const timer = this.#o.timers.set(() => {
        const held = this.#quiet?.lines ?? [];
        this.#quiet = undefined;
        this.#write(held);
      }, QUIET_MS);
      this.#quiet = { lines, timer };
    } else if (lines.length > 0 || (this.#field !== undefined && !sameField)) {
      this.#dropQuiet();
      this.#leaveField();
      this.#write(lines);
    }
    if (field && this.#field?.key === field.key) {
      this.#o.write(fieldEcho(this.#field.text, field.text, this.#shown));
      this.#field = field;
    } else if (field) {
      this.#o.write(fieldShown(field.text, this.#shown));
      this.#field = field;
    }
  }

  /** Lines said at once, above the field being typed into when there is one. */
  say(...lines: string[]): void {
    this.#write(lines);
  }

  /** Where the keys act and what is selected, said again (o). */
  repeat(): void {
    const screen = this.#screen;
    if (!screen) return;
    this.#write([screen.place, screen.body?.words ?? '', screen.selected?.words ?? '', screen.field?.prompt ?? '']);
  }

  /** The terminal was left (Ctrl-Z): the line typed into ends, so the shell's prompt starts its own. */
  suspend(): void {
    this.#dropQuiet();
    this.#leaveField();
  }

  /** Back from a suspend: the place said again, and the field being typed into written again. */
  resume(): void {
    this.say('resumed');
    this.repeat();
    const field = this.#screen?.field;
    if (field && this.#field === undefined) {
      this.#o.write(fieldShown(field.text, this.#shown));
      this.#field = field;
    }
  }

  /** Lines end in \n alone: raw mode as Node sets it keeps the driver's ONLCR, which makes it \r\n. */
  #write(lines: readonly string[]): void {
    const said = lines.flatMap((line) => line.split('\n')).filter((line) => line !== '');
    if (said.length === 0) return;
    const field = this.#field;
    this.#leaveField();
    this.#o.write(said.map((line) => `${this.#shown(sanitize(line))}\n`).join(''));
    if (field) {
      this.#o.write(fieldShown(field.text, this.#shown));
      this.#field = field;
    }
  }

  /** Ends the field's line: what comes next starts a line of its own. */
  #leaveField(): void {
    if (this.#field === undefined) return;
    this.#o.write('\n');
    this.#field = undefined;
  }

  #dropQuiet(): void {
    if (this.#quiet) this.#o.timers.clear(this.#quiet.timer);
    this.#quiet = undefined;
  }

  readonly #statusChanged = (): void => {
    const { status } = this.#o;
    const snapshot = status.getSnapshot();
    const lines: string[] = [];
    for (const message of snapshot.history) {
      if (this.#heard.has(message)) continue;
      this.#heard.add(message);
      if (message.kind === 'notice') lines.push(message.text);
    }
    const standing = status.standing();
    for (const [source, message] of standing) {
      if (this.#errors.get(source) === message) continue;
      const retry = snapshot.error?.source === source && snapshot.error.retryAt !== undefined ? Math.max(1, Math.round((snapshot.error.retryAt - this.#o.now()) / 1000)) : undefined;
      lines.push(`problem: ${message}${retry === undefined ? '' : `; trying again in ${countWords(retry, 'second')}`}`);
    }
    for (const source of this.#errors.keys()) if (!standing.has(source)) lines.push(RECOVERED[source]);
    this.#errors = standing;
    this.#write(lines);
  };

  /** The selected price, said when the clock comes round and it changed, never into a field being typed. */
  #armPrices(): void {
    const every = this.#o.readPricesEveryS ?? 0;
    if (every <= 0) return;
    this.#priceTimer = this.#o.timers.set(() => {
      const price = this.#field === undefined ? this.price() : undefined;
      if (price && price.key !== this.#lastPrice) {
        this.#lastPrice = price.key;
        this.say(price.words);
      }
      this.#armPrices();
    }, every * 1000);
  }

  /** The selected price now, asked for (t). */
  readPrice(): void {
    const price = this.price();
    this.#lastPrice = price?.key;
    this.say(price?.words ?? 'no symbol selected: the watchlist is empty');
  }
}
