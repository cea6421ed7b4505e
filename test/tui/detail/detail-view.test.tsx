// The detail view (issue 11) as a user drives it: Enter on a watchlist row opens the symbol over
// both panes, with its chart drawn from a real history file (a PriceRecorder in a temp dir,
// pre-filled with the last half hour of prices) and its prices from a real in-process sandbox.
// Asserted through the frames the real Dashboard draws (ink-testing-library).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { stripVTControlCharacters } from 'node:util';
import { dayStart } from '../../../src/market/bars.js';
import { PriceRecorder } from '../../../src/store/price-recorder.js';
import { formatPrice } from '../../../src/text/numbers.js';
import { Dashboard, type DashboardProps } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, expectFramesFit, renderDashboard, unmountAll, type DashboardHarness } from '../../helpers/dashboard.js';
import { inAct, inverseSegments } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { KEY } from '../../helpers/keys.js';
import { startProxy } from '../../helpers/proxy.js';
import { TickbookClient } from '../../../src/api/client.js';


const TARGET = 'sandbox (detail view test)';
const WATCHLIST = ['AAPL', 'MSFT', 'SHEL.L'];
const SIZE = { columns: 120, rows: 40 };
const BRAILLE = /[\u2801-\u28ff]/;
const SPAN_NAMES = ['1h', '1d', '5d', '1m', 'all'] as const;
/** Pre-filled: a price every 5 s (joined on the 1h chart, whose widest gap is 10 s) for 30 min. */
const PREFILL_MS = 30 * 60_000;
const PREFILL_STEP_MS = 5_000;

const TITLE = /AAPL · Apple Inc\. · US listing/;
const NOTE = /fewer than two prices in (the last hour|the last day|the last 5 days|the last month|all that is recorded) \(([^)]*)\): the chart fills in as prices come/;

const two = (n: number) => String(n).padStart(2, '0');
const clock = (t: number) => `${two(new Date(t).getHours())}:${two(new Date(t).getMinutes())}`;

afterEach(unmountAll);

/** The span drawn inverted in the span row (the only inverted text with a span name alone). */
function chosenSpan(raw: string): string | undefined {
  return inverseSegments(raw)
    .map((s) => s.trim())
    .find((s) => (SPAN_NAMES as readonly string[]).includes(s));
}

/** The lines of the view's chart area: those holding a braille cell. */
const brailleLines = (frame: string): string[] => frame.split('\n').filter((line) => BRAILLE.test(line));


interface Mount extends DashboardHarness {
  props: DashboardProps;
  resize(size: { columns: number; rows: number }): Promise<void>;
}

async function mount(props: Omit<DashboardProps, 'status' | 'target' | 'size'> & { size?: DashboardProps['size'] }): Promise<Mount> {
  const size = props.size ?? SIZE;
  const full: DashboardProps = { status: new StatusBoard(), target: TARGET, size, undoWindowMs: 300, ...props };
  const instance = await renderDashboard(<Dashboard {...full} />, size.columns);
  const h: Mount = {
    ...drive(instance),
    props: full,
    async resize(next) {
      Object.defineProperty(instance.stdout, 'columns', { value: next.columns, configurable: true });
      await inAct(() => instance.rerender(<Dashboard {...full} size={next} />));
    },
  };
  await h.until((f) => /AAPL\b.* \d+\.\d\d /.test(f) && /MSFT\b.* \d+\.\d\d /.test(f), 'the first prices');
  return h;
}

/** Tab to the ticker, then Enter on the row the cursor is on. */
async function openSelected(h: Mount, symbol: string): Promise<string> {
  await h.press(KEY.tab);
  await h.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
  await h.press(KEY.enter);
  return h.until((f) => f.includes(`${symbol} · `) && /\b1h\b.*\b1d\b.*\b5d\b.*\b1m\b.*\ball\b/.test(f), `the detail view of ${symbol}`);
}

/**
 * A history file in `dir` with the last half hour of AAPL recorded. `clockSkewMs`: how far the
 * recorder's clock reads from the view's (the store takes "now" from it when choosing what a
 * span's chart is drawn from).
 */
async function prefilledRecorder(dir: string, warnings: string[], clockSkewMs = 0) {
  const recorder = new PriceRecorder({
    source: 'detail-view-test',
    path: join(dir, 'history.db'),
    onWarning: (w) => warnings.push(w),
    now: () => Date.now() + clockSkewMs,
  });
  await recorder.open();
  expect(recorder.recording).toBe(true);
  const now = Date.now();
  let volume = 50_000_000;
  let firstToday: { t: number; price: number } | undefined;
  for (let t = now - PREFILL_MS, i = 0; t < now - 1_000; t += PREFILL_STEP_MS, i++) {
    // A wave around the sandbox's AAPL price, so the line goes up and down.
    const price = Math.round((208 + 4 * Math.sin(i / 15)) * 100) / 100;
    volume += 1_000 + i;
    recorder.record([{ symbol: 'AAPL', price, volume }], t);
    if (firstToday === undefined && t >= dayStart(now)) firstToday = { t, price };
  }
  return { recorder, firstToday };
}

describe('the detail view over a recorded history', () => {
  const ctx = setUpSandbox();
  let dir: string;
  let recorder: PriceRecorder;
  const warnings: string[] = [];
  /** When the pre-filled record of today begins. */
  let firstToday: number | undefined;
  let firstPrice: number;

  // A history file of its own for each test: the polls of one test are not in the next one's.
  // The recorder's clock reads a little behind the view's: see the last describe for why.
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-detail-'));
    warnings.length = 0;
    const made = await prefilledRecorder(dir, warnings, -50);
    recorder = made.recorder;
    firstToday = made.firstToday?.t;
    firstPrice = made.firstToday?.price ?? 0;
  });

  afterEach(async () => {
    // The dashboard first: it records into the file until it is unmounted.
    await unmountAll();
    expect(warnings).toEqual([]);
    recorder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws the symbol\'s alert lines across its chart, as a dotted row', async () => {
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder });
    await openSelected(h, 'AAPL');
    await h.press('1');
    const before = await h.until((f) => brailleLines(f).length >= 3, 'the 1h chart');
    const dotted = (frame: string) => frame.split('\n').some((line) => /([\u2801-\u28ff])\1{12,}/.test(line));
    expect(dotted(before)).toBe(false);
    // A line inside the wave of the pre-filled prices (204-212): it is drawn once the chart is.
    const { alertsOf } = await import('../../../src/store/alerts-store.js');
    const { openHistoryStore } = await import('../../../src/store/history-store.js');
    const other = openHistoryStore(join(dir, 'history.db'));
    alertsOf(other).add('detail-view-test', 'AAPL', { kind: 'above', price: 210 }, { price: 208, at: Date.now(), oneShot: false });
    other.close();
    await h.press('2', '1');
    await h.until(dotted, 'the alert line across the chart');
  });

  it('Enter on the ticker opens AAPL over both panes: title, price line, day line, spans and a braille chart', async () => {
    // A poll a minute: the symbols without pre-filled history keep fewer than two prices.
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder });
    const frame = await openSelected(h, 'AAPL');
    expect(frame).toMatch(TITLE);
    // Over both panes: the contacts pane and the watchlist table are gone.
    expect(frame).not.toMatch(/Contacts/);
    expect(frame).not.toMatch(/MSFT/);
    // The price line: the price, then "first price this session" (one poll so far) or a tick change.
    expect(frame).toMatch(/\d+\.\d\d {2}(first price this session|[+\-±]\d+\.\d\d \([+-]?\d+\.\d\d%\) tick)/);
    // The change since the day's open, against the first price recorded today.
    if (firstToday !== undefined) {
      expect(frame).toMatch(/[+\-±]\d+\.\d\d \([+-]?\d+\.\d\d%\) today/);
      const day = frame.split('\n').find((line) => /open \d/.test(line));
      expect(day, frame).toBeDefined();
      expect(day).toMatch(new RegExp(`open ${formatPrice(firstPrice).replace('.', '\\.')} {2}high \\d+\\.\\d\\d {2}low \\d+\\.\\d\\d {2}volume \\d+(\\.\\d)?[kMB]?`));
      // Recording began half an hour ago, later than midnight: the day line says since when.
      if (firstToday > dayStart(firstToday) + 2 * 60_000) expect(day).toContain(`(since ${clock(firstToday)})`);
    }
    // The span row, the last span chosen (1d, at first) inverted, and a chart of braille cells.
    expect(frame).toMatch(/ 1h {3}1d {3}5d {3}1m {3}all /);
    expect(chosenSpan(h.raw())).toBe('1d');
    expect(h.raw()).toContain('\u001b[7m 1d \u001b[27m');
    const chart = brailleLines(frame);
    expect(chart.length, frame).toBeGreaterThanOrEqual(3);
    // The price labels of the chart: the high and low of the half hour are within the wave.
    expect(frame).toMatch(/[\u2801-\u28ff ]+ 2\d\d\.\d\d/);
    // The footer lists the view's keys (in brief words: in full they do not fit 120 columns).
    expect(frame).toMatch(/Esc back · j\/k symbol · h\/l span · a alert/);
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('1-5 choose the span, h/l and ←/→ and [ ] step it, stopping at either end; every span draws', async () => {
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder });
    await openSelected(h, 'AAPL');
    for (const [i, name] of SPAN_NAMES.entries()) {
      await h.press(String(i + 1));
      await h.until(() => chosenSpan(h.raw()) === name, `span ${name} chosen`);
      expect(h.raw()).toContain(`\u001b[7m ${name} \u001b[27m`);
      // Only one span inverted.
      expect(inverseSegments(h.raw()).filter((s) => (SPAN_NAMES as readonly string[]).includes(s.trim()))).toEqual([` ${name} `]);
      // Half an hour recorded: every span has a line to draw.
      const frame = h.frame();
      expect(brailleLines(frame).length, `span ${name}:\n${frame}`).toBeGreaterThan(0);
      expect(frame).not.toMatch(NOTE);
    }
    // The 1h chart's time axis reads clock times; the 5d one dates.
    await h.press('1');
    await h.until(() => chosenSpan(h.raw()) === '1h', 'span 1h');
    expect(h.frame()).toMatch(/\d\d:\d\d {2,}.*\d\d:\d\d/);
    await h.press('3');
    await h.until(() => chosenSpan(h.raw()) === '5d', 'span 5d');
    expect(h.frame()).toMatch(/[A-Z][a-z]{2} \d{1,2}/);

    const steps: [string, string][] = [
      ['h', '1d'],
      ['h', '1h'],
      ['h', '1h'], // stops at the shortest
      [KEY.left, '1h'],
      ['l', '1d'],
      [KEY.right, '5d'],
      [']', '1m'],
      ['l', 'all'],
      [']', 'all'], // stops at the longest
      [KEY.right, 'all'],
      ['[', '1m'],
      [KEY.left, '5d'],
    ];
    for (const [key, name] of steps) {
      await h.press(key);
      await h.until(() => chosenSpan(h.raw()) === name, `span ${name} after ${JSON.stringify(key)}`);
    }
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('a symbol with no history says the chart fills in as prices come; j/k step the watchlist as shown and the highlight follows', async () => {
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder });
    await openSelected(h, 'AAPL');
    await h.press('2');
    await h.until(() => chosenSpan(h.raw()) === '1d', 'span 1d');

    await h.press('j');
    let frame = await h.until((f) => /MSFT · Microsoft/.test(f), 'MSFT open');
    expect(frame).toMatch(/MSFT · Microsoft[^\n]* · US listing/);
    expect(frame).not.toMatch(TITLE);
    // One poll recorded (an interval of a minute): a note, not a chart.
    const note = NOTE.exec(frame);
    expect(note, frame).not.toBeNull();
    expect(note![1]).toBe('the last day');
    expect(note![2]).toMatch(/^(recorded since \d\d:\d\d|nothing is recorded yet)$/);
    expect(brailleLines(frame)).toEqual([]);
    // The span is kept from symbol to symbol.
    expect(chosenSpan(h.raw())).toBe('1d');

    await h.press(KEY.down);
    frame = await h.until((f) => /SHEL\.L · Shell plc · London Stock Exchange/.test(f), 'SHEL.L open');
    expect(frame).toMatch(NOTE);
    // The last row: j stops there.
    await h.press('j', 'j');
    expect(h.frame()).toMatch(/SHEL\.L · Shell plc/);
    await h.press('k');
    await h.until((f) => /MSFT · Microsoft/.test(f), 'MSFT again after k');
    await h.press(KEY.up);
    await h.until((f) => TITLE.test(f), 'AAPL again after ↑');
    await h.press('k');
    expect(h.frame()).toMatch(TITLE);
    await h.press('j');
    await h.until((f) => /MSFT · Microsoft/.test(f), 'MSFT once more');

    // Esc: the watchlist, its highlight on the symbol last looked at.
    await h.press(KEY.esc);
    frame = await h.until((f) => /Contacts/.test(f) && /SHEL\.L/.test(f), 'the panes again');
    expect(frame).not.toMatch(/MSFT · Microsoft/);
    const highlighted = inverseSegments(h.raw()).find((s) => /AAPL|MSFT|SHEL\.L/.test(s));
    expect(highlighted, h.raw()).toMatch(/MSFT/);
    // Enter opens where the highlight is; Backspace goes back too.
    await h.press(KEY.enter);
    await h.until((f) => /MSFT · Microsoft/.test(f), 'MSFT opened from the watchlist');
    await h.press(KEY.backspace);
    await h.until((f) => /Contacts/.test(f) && !/MSFT · Microsoft/.test(f), 'back after Backspace');
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('a tick redraws the open view: the tick change, and the chart once a second price is recorded', async () => {
    // The second poll and those after are held until the view is open on its one price.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let polls = 0;
    const proxy = await startProxy(ctx.sb.url, { hold: (req) => (req.url.includes('realtime-pricing') && ++polls > 1 ? released : undefined) });
    const client = new TickbookClient({ contactsUrl: ctx.sb.contactsUrl, marketDataUrl: proxy.url, token: ctx.sb.token, apiKey: ctx.sb.apiKey });
    try {
      const h = await mount({ client, watchlist: ['MSFT', 'AAPL'], intervalS: 1, history: recorder });
      const opened = await openSelected(h, 'MSFT');
      expect(opened).toMatch(/\d+\.\d\d {2}first price this session/);
      expect(opened).toMatch(NOTE);
      release();
      const frame = await h.until((f) => /[+\-±]\d+\.\d\d \([+-]?\d+\.\d\d%\) tick/.test(f), 'the tick change of the second price');
      await h.until((f) => !NOTE.test(f) && brailleLines(f).length > 0, 'the chart of the two prices', 5000);
      expect(frame).toMatch(/MSFT · Microsoft/);
    } finally {
      release();
      await unmountAll();
      await client.close();
      await proxy.close();
    }
  });

  it('follows the watchlist as sorted on screen, not as saved', async () => {
    const h = await mount({ client: ctx.client, watchlist: ['MSFT', 'SHEL.L', 'AAPL'], intervalS: 60, history: recorder });
    await h.press(KEY.tab);
    await h.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
    // Sorted by symbol: AAPL, MSFT, SHEL.L (saved: MSFT, SHEL.L, AAPL).
    await h.press('s');
    const frame = await h.until((f) => /by symbol/.test(f), 'sorted by symbol');
    const rows = frame
      .split('\n')
      .map((l) => /\b(AAPL|MSFT|SHEL\.L)\b/.exec(l)?.[1])
      .filter((s) => s !== undefined);
    expect(rows).toEqual(['AAPL', 'MSFT', 'SHEL.L']);
    await h.press('g', KEY.enter);
    await h.until((f) => TITLE.test(f), 'AAPL open');
    await h.press('j');
    // In the saved order AAPL is last, and j would stay on it.
    await h.until((f) => /MSFT · Microsoft/.test(f), 'MSFT next, as shown');
    await h.press('j');
    await h.until((f) => /SHEL\.L · Shell/.test(f), 'SHEL.L next, as shown');
    await h.press(KEY.esc);
    await h.until((f) => /by symbol/.test(f), 'the watchlist again');
    expect(inverseSegments(h.raw()).find((s) => /AAPL|MSFT|SHEL\.L/.test(s))).toMatch(/SHEL\.L/);
  });

  it('? over the open symbol lists its keys under "An open symbol"; closing the help comes back to it', async () => {
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder });
    await openSelected(h, 'AAPL');
    await h.press('?');
    const help = await h.until((f) => /An open symbol/.test(f), 'the help');
    expect(help).toMatch(/back to the watchlist/);
    expect(help).toMatch(/longer span/);
    expect(help).toMatch(/shorter span/);
    expect(help).toMatch(/1-5\s+span 1h, 1d, 5d, 1m, all/);
    await h.press(KEY.esc);
    await h.until((f) => TITLE.test(f) && !/An open symbol/.test(f), 'the detail view again');
  });

  it('fits every frame at 80x24, at 60x16 and through resizes while open', async () => {
    const small = { columns: 80, rows: 24 };
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder, size: small });
    await openSelected(h, 'AAPL');
    await h.press('1');
    let frame = await h.until((f) => brailleLines(f).length > 0 && chosenSpan(h.raw()) === '1h', 'a 1h chart at 80x24');
    expect(frame).toMatch(/AAPL · Apple Inc\./);
    expectFramesFit(h.instance, small.columns);

    await h.resize({ columns: 60, rows: 16 });
    await h.until((f) => /AAPL/.test(f) && f.split('\n').length <= 16, 'the view at 60x16');
    await h.press('5');
    frame = await h.until(() => chosenSpan(h.raw()) === 'all', 'span all at 60x16');
    for (const line of frame.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(60);
    // Still a chart: 13 rows of panes leave 6 for it.
    expect(brailleLines(frame).length, frame).toBeGreaterThan(0);

    await h.resize({ columns: 200, rows: 50 });
    frame = await h.until((f) => brailleLines(f).length > 0 && f.split('\n').some((l) => stringWidth(l) > 150), 'the view at 200x50');
    for (const line of frame.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(200);
    // Each width's frames checked against the width they were drawn for.
    const frames = h.instance.frames;
    expect(frames.every((f) => stripVTControlCharacters(f).split('\n').every((l) => stringWidth(l) <= 200))).toBe(true);
  });

  it('nothing recorded and not known to the server: says so, without a chart', async () => {
    const h = await mount({ client: ctx.client, watchlist: ['AAPL', 'MSFT', 'NOPE1'], intervalS: 60, history: recorder });
    await h.until((f) => /NOPE1 +unknown symbol/.test(f), 'NOPE1 unknown');
    await h.press(KEY.tab);
    await h.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
    await h.press('G', KEY.enter);
    const frame = await h.until((f) => /NOPE1 · /.test(f) && NOTE.test(f), 'NOPE1 open');
    expect(frame).toMatch(/the server does not know this symbol/);
    expect(NOTE.exec(frame)![2]).toBe('nothing is recorded yet');
    expect(brailleLines(frame)).toEqual([]);
    expectFramesFit(h.instance, SIZE.columns);
  });
});

describe('the detail view without a history', () => {
  const ctx = setUpSandbox();

  it('says prices are not recorded in this run, and still shows the price', async () => {
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60 });
    const frame = await openSelected(h, 'AAPL');
    await h.until((f) => TITLE.test(f), 'the title with its name');
    expect(frame).toMatch(/prices are not recorded in this run/);
    expect(brailleLines(h.frame())).toEqual([]);
    // The price is the sandbox's, as polled; no day figures without a record.
    expect(h.frame()).toMatch(/\d+\.\d\d {2}first price this session/);
    expect(h.frame()).toMatch(/nothing recorded today yet/);
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('says why when the history cannot be opened, instead of promising a chart that never comes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickbook-detail-off-'));
    try {
      writeFileSync(join(dir, 'file'), '');
      const warnings: string[] = [];
      const history = new PriceRecorder({ source: 'test', path: join(dir, 'file', 'history.db'), onWarning: (w) => warnings.push(w) });
      await history.open();
      expect(history.recording).toBe(false);
      expect(warnings).toHaveLength(1);
      const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history });
      await openSelected(h, 'AAPL');
      const frame = await h.until((f) => /no chart: cannot record price history in /.test(f), 'the reason');
      expect(frame).not.toMatch(/fills in as prices come/);
      expectFramesFit(h.instance, SIZE.columns);
      history.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The view reads Date.now() and asks the store for [now - span, now]; the store then reads its own
// clock again to choose ticks (within a day of it), minute bars (within 30 days) or day bars. When
// the clock has moved on by even 1 ms between the two reads, "now - 30 days" is older than 30
// days by the store's clock, and the 1m chart is drawn from day bars: with today's half hour
// recorded, one point, and the note instead of a chart.
describe('the 1m span when the store reads the clock a moment after the view', () => {
  const ctx = setUpSandbox();
  let dir: string;
  let recorder: PriceRecorder;
  const warnings: string[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-detail-'));
    recorder = (await prefilledRecorder(dir, warnings, 2)).recorder;
  });

  afterEach(async () => {
    await unmountAll();
    recorder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('still draws the half hour recorded (a span whose start is 30 days ago is in the minute bars)', async () => {
    const h = await mount({ client: ctx.client, watchlist: WATCHLIST, intervalS: 60, history: recorder });
    await openSelected(h, 'AAPL');
    await h.press('4');
    await h.until(() => chosenSpan(h.raw()) === '1m', 'span 1m');
    const frame = h.frame();
    expect(frame).not.toMatch(NOTE);
    expect(brailleLines(frame).length, frame).toBeGreaterThan(0);
  });
});
