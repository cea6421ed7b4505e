// What the terminal is sent for a screen reader: lines appended, each said once, never a row
// rewritten. A reader reading the terminal in order (Orca, speakup, NVDA, VoiceOver, Emacspeak)
// then hears what changed and nothing else: the place and the selection as the keys move them,
// every notice (a confirmation, an alert) as it comes, an error once and its end once, and a
// price only when asked for (t), or every N seconds when the user set that. A field being typed
// into is the last line, echoed as a shell echoes it (field-echo.ts), the cursor in it.
import type { Timers } from '../contacts/write-ledger.js';
import type { Source, StatusBoard, StatusMessage } from '../state/status.js';
import { sanitize } from '../../text/sanitize.js';
import { asciiLine } from '../style/glyphs.js';
import { type DrawnField, fieldStep } from './field-echo.js';
import { type ReaderField, type ReaderScreen, type Said, screenLines } from './reader-screen.js';
import { countWords } from './spoken-words.js';

/** How long typing must pause before what it changed (the best match) is said: not between letters. */
export const QUIET_MS = 700;
/** How long after Enter a field still open is taken as refused. */
export const SUBMIT_CHECK_MS = 150;

/** Marks the dashboard's notices use for the eye, in words: a reader would name the mark. */
const MARK_WORDS: readonly [RegExp, string][] = [
  [/ · /g, ', '],
  [/↓/g, 'down arrow'],
  [/↑/g, 'up arrow'],
  [/←/g, 'left arrow'],
  [/→/g, 'right arrow'],
  [/…/g, '...'],
  [/±/g, 'plus or minus '],
  [/\b(\d+)s\b/g, '$1 seconds'],
];

/** A line as a reader should get it: cleaned of control characters, its marks in words. */
export function spoken(line: string): string {
  let text = sanitize(line);
  for (const [mark, words] of MARK_WORDS) text = text.replace(mark, words);
  return text;
}

/**
 * Text for a reader on a terminal that cannot show Unicode: accents dropped ("Chloé" is "Chloe",
 * which a reader says right), and what has no ASCII form as the drawn dashboard shows it.
 */
export const spokenAscii = (text: string): string => asciiLine(text.normalize('NFD').replace(/\p{Mn}/gu, ''));

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
  /** The terminal's width: a field longer than the line scrolls sideways within it. 80 by default. */
  columns?: (() => number) | undefined;
}

export class ReaderOutput {
  readonly #o: ReaderOutputOptions;
  readonly #shown: (text: string) => string;
  /** The screen as it is now, and as it was when last said: what is said is the difference. */
  #screen: ReaderScreen | undefined;
  #said: ReaderScreen | undefined;
  /** The field on the terminal's last line, and what of it is drawn there, the cursor at its cursor. */
  #field: ReaderField | undefined;
  #drawnField: DrawnField | undefined;
  /** The timer that says what typing changed once it pauses. */
  #quiet: unknown;
  #submitCheck: unknown;
  /** A form's problem was said since Enter was last pressed in it. */
  #problemSaid = false;
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
  /** The dashboard described now, set by the dashboard: `o` says it as it is, prices and all. */
  describe: () => ReaderScreen | undefined = () => undefined;

  constructor(options: ReaderOutputOptions) {
    this.#o = options;
    this.#shown = options.shown ?? ((text) => text);
  }

  /** Starts listening to the status board and the price clock; says how to begin. */
  start(): void {
    this.say('tickbook, for a screen reader. Tab changes pane, question mark says the keys, t reads the selected price, o says where you are, q quits.');
    // What was said before the dashboard was up (a warning about the config file) is said now.
    this.#statusChanged();
    this.#unsubscribe = this.#o.status.subscribe(this.#statusChanged);
    this.#armPrices();
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#priceTimer !== undefined) this.#o.timers.clear(this.#priceTimer);
    this.#priceTimer = undefined;
    this.#dropQuiet();
    if (this.#submitCheck !== undefined) this.#o.timers.clear(this.#submitCheck);
    this.#submitCheck = undefined;
    this.#leaveField();
  }

  /** The dashboard as it is now: says what changed since what was last said. */
  show(screen: ReaderScreen): void {
    this.#screen = screen;
    const field = screen.field;
    if (field !== undefined && this.#field?.key === field.key) {
      this.#drawField(field, false);
      // What typing changed (the best match) is said once typing pauses, as the screen is then:
      // after each letter it would drown the letters, and a match for a query since changed is
      // no news.
      if (screenLines(this.#said, screen).length > 0) {
        this.#dropQuiet();
        this.#quiet = this.#o.timers.set(() => {
          this.#quiet = undefined;
          this.#catchUp();
        }, QUIET_MS);
      }
      return;
    }
    this.#dropQuiet();
    const lines = this.#catchUp();
    if (lines === 0 && this.#field !== undefined) this.#leaveField();
    if (field) this.#drawField(field, true);
  }

  /** Writes `field` on the line: afresh, or as the change from what is drawn there. */
  #drawField(field: ReaderField, fresh: boolean): void {
    const { bytes, drawn } = fieldStep(fresh ? undefined : this.#drawnField, field.text, this.#o.columns?.() ?? 80, this.#shown);
    this.#o.write(bytes);
    this.#field = field;
    this.#drawnField = drawn;
  }

  /** Says what changed between the screen last said and the screen now; how many lines that was. */
  #catchUp(): number {
    const screen = this.#screen;
    if (!screen) return 0;
    const lines = screenLines(this.#said, screen);
    this.#said = screen;
    this.#write(lines, screen.field === undefined || this.#field?.key !== screen.field.key);
    return lines.length;
  }

  /**
   * Enter was pressed in a field: if the field is still open a moment later with a problem, the
   * problem is said, though it was said before (a form refused twice for the same reason).
   */
  submitted(): void {
    const field = this.#screen?.field?.key;
    if (field === undefined) return;
    this.#problemSaid = false;
    if (this.#submitCheck !== undefined) this.#o.timers.clear(this.#submitCheck);
    this.#submitCheck = this.#o.timers.set(() => {
      this.#submitCheck = undefined;
      const screen = this.#screen;
      const problem = screen?.facts.problem;
      if (screen?.field?.key === field && problem !== undefined && !this.#problemSaid) this.say(problem);
    }, SUBMIT_CHECK_MS);
  }

  /** Lines said at once, above the field being typed into when there is one. */
  say(...lines: string[]): void {
    this.#write(lines);
  }

  /** Where the keys act and what is selected, said again (o), as they are now (a price too). */
  repeat(): void {
    const screen = this.describe() ?? this.#screen;
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
    if (field && this.#field === undefined) this.#drawField(field, true);
  }

  /**
   * Says `lines` on lines of their own (a line of several is split at its line breaks: a body's
   * fields), above the field being typed into, which is written again under them unless `leave`.
   * Lines end in \n alone: raw mode as Node sets it keeps the driver's ONLCR, which makes it \r\n.
   */
  #write(lines: readonly string[], leave = false): void {
    const said = lines.flatMap((line) => line.split('\n')).filter((line) => line !== '');
    if (said.length === 0) return;
    const field = this.#field;
    this.#leaveField();
    if (this.#screen?.facts.problem !== undefined && said.includes(this.#screen.facts.problem)) this.#problemSaid = true;
    this.#o.write(said.map((line) => `${this.#shown(spoken(line))}\n`).join(''));
    if (field && !leave) this.#drawField(field, true);
  }

  /** Ends the field's line: what comes next starts a line of its own (an empty field's line is that already). */
  #leaveField(): void {
    if (this.#field === undefined) return;
    // An empty field leaves the cursor at the start of an empty line: the next line goes there.
    this.#o.write(this.#drawnField?.shown.value === '' ? '' : '\n');
    this.#field = undefined;
    this.#drawnField = undefined;
  }

  #dropQuiet(): void {
    if (this.#quiet !== undefined) this.#o.timers.clear(this.#quiet);
    this.#quiet = undefined;
  }

  readonly #statusChanged = (): void => {
    const { status } = this.#o;
    const snapshot = status.getSnapshot();
    const lines: string[] = [];
    for (const message of snapshot.history) {
      if (this.#heard.has(message)) continue;
      this.#heard.add(message);
      // Cleaned before it is split into lines: a name with a line break in it makes no line of its own.
      if (message.kind === 'notice') lines.push(sanitize(message.text));
    }
    const standing = status.standing();
    for (const [source, message] of standing) {
      if (this.#errors.get(source) === message) continue;
      const retry = snapshot.error?.source === source && snapshot.error.retryAt !== undefined ? Math.max(1, Math.round((snapshot.error.retryAt - this.#o.now()) / 1000)) : undefined;
      lines.push(`problem: ${sanitize(message)}${retry === undefined ? '' : `; trying again in ${countWords(retry, 'second')}`}`);
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
