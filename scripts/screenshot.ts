// `npm run screenshot`: the README's pictures, docs/images/dashboard.svg and detail.svg, made from
// a real run of the dashboard (bin/tickbook, as built) in a pseudo-terminal of 120x40, on its
// embedded sandbox, read through a headless terminal emulator (test/bench/pty-app.ts) and drawn
// as SVG (terminal-svg.ts). `--out DIR` writes them there instead.
//
// Every run draws the same bytes. The sandbox's database is made here beforehand with a fixed
// market seed and epoch and its demo contacts; the history file gets a day of that market's
// prices, a minute apart, as the dashboard would have recorded them; and the dashboard runs with
// a clock of its own (screenshot-clock.mjs) that stands still and moves on one poll interval at
// each pricing request, so its 16th poll prices the market at AT, whenever it comes. The picture
// of the dashboard is read just after that poll is drawn, the detail view's just after the next;
// each is checked to show exactly those polls' prices, or the script fails saying so.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultDatabasePath } from '../src/config/paths.js';
import { DAY_MS, MINUTE_MS } from '../src/market/bars.js';
import { loadCatalogue } from '../src/server/catalogue.js';
import { MarketSimulator } from '../src/server/market.js';
import { startSandbox } from '../src/server/sandbox.js';
import { openHistoryStore } from '../src/store/history-store.js';
import { historyPath, historySource } from '../src/store/history-source.js';
import { formatPrice } from '../src/text/numbers.js';
import { DEFAULT_WATCHLIST } from '../src/tui/ticker/ticker-state.js';
import { PtyApp } from '../test/bench/pty-app.js';
import { terminalSvg } from './terminal-svg.js';

const COLUMNS = 120;
const ROWS = 40;
const SEED = 21;
/** The moment the dashboard's picture shows: a Thursday, 20:30 UTC. */
const AT = Date.UTC(2026, 4, 14, 20, 30);
/** The market's walk starts a day before, where the recorded history does. */
const EPOCH = AT - DAY_MS;
/** The dashboard's default interval (2 s): a poll's step of the clock. */
const STEP_MS = 2000;
/** Polls before the dashboard's picture: enough for every TREND cell at this width. */
const POLLS = 16;
/** The dashboard's clock at its start: its POLLS-th poll is at AT. */
const CLOCK_START = AT - POLLS * STEP_MS;
const WAIT_MS = 20_000;
/** No output for this long: the frame is whole. */
const QUIET_MS = 300;

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
let outOption: string | undefined;
try {
  outOption = parseArgs({ options: { out: { type: 'string' } } }).values.out;
} catch (error) {
  process.stderr.write(`screenshot: ${(error as Error).message}; the one option is --out DIR\n`);
  process.exit(2);
}
const out = resolve(outOption ?? join(root, 'docs/images'));

const work = mkdtempSync(join(tmpdir(), 'tickbook-screenshot-'));
// Only what the picture depends on: nothing of the caller's terminal, locale, colours or tickbook settings.
const env: NodeJS.ProcessEnv = {
  PATH: [dirname(process.execPath), process.env.PATH].filter(Boolean).join(':'),
  HOME: work,
  XDG_DATA_HOME: join(work, 'data'),
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_CACHE_HOME: join(work, 'cache'),
  TERM: 'xterm-256color',
  LANG: 'C.UTF-8',
  TZ: 'UTC',
  NODE_OPTIONS: `--import=${pathToFileURL(join(root, 'scripts/screenshot-clock.mjs')).href}`,
  SCREENSHOT_CLOCK_MS: String(CLOCK_START),
  SCREENSHOT_STEP_MS: String(STEP_MS),
  SCREENSHOT_FAST_POLLS: String(POLLS),
};

const market = (() => {
  let now = 0;
  const simulator = new MarketSimulator({ catalogue: loadCatalogue(), seed: SEED, epochMs: EPOCH, now: () => now });
  return (at: number) => {
    now = at;
    return DEFAULT_WATCHLIST.map((symbol) => simulator.quote(symbol)!);
  };
})();

/** The sandbox's database with the fixed market and its demo contacts, and a day of recorded prices. */
async function prepare(): Promise<void> {
  const dbPath = defaultDatabasePath(env);
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  const sandbox = await startSandbox({ dbPath, seed: SEED, marketEpochMs: EPOCH, now: () => CLOCK_START, port: 0 });
  await sandbox.close();
  const history = openHistoryStore(historyPath(env));
  try {
    const source = historySource({ sandboxDbPath: resolve(dbPath), marketDataUrl: '' });
    // From ten minutes after the epoch: prices are kept a day, and the dashboard's clock goes past
    // AT by seconds only, so none of these age out while it runs (the chart would lose them).
    for (let at = EPOCH + 10 * MINUTE_MS; at < CLOCK_START; at += MINUTE_MS) history.record(source, market(at), at);
  } finally {
    history.close();
  }
}

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the screen shows every watchlist row at the market's prices at `at`. */
const showsPricesAt = (at: number) => {
  const rows = market(at).map(({ symbol, price }) => new RegExp(`${literal(symbol)}\\s+${literal(formatPrice(price))}\\s`));
  return (screen: string) => rows.every((row) => row.test(screen));
};

/** Waits for `test`, then for the frame to be whole; the screen's cells, checked again. */
async function capture(app: PtyApp, what: string, test: (screen: string) => boolean) {
  if ((await app.until(() => test(app.text()), WAIT_MS)) === undefined) throw new Error(`no ${what} on screen in ${WAIT_MS / 1000} s`);
  await app.quiet(QUIET_MS, 5000);
  const rows = app.styledRows();
  const screen = rows.map((row) => row.map((cell) => cell.text).join('')).join('\n');
  // The next poll came meanwhile: its prices are another picture.
  if (!test(screen)) throw new Error(`the screen moved on from ${what} before it was read (a busy machine?); run it again`);
  return rows;
}

/** The two pictures' cells: the dashboard after poll POLLS, the first row's detail view after the next. */
async function shoot(app: PtyApp) {
  const dashboard = await capture(
    app,
    `the contacts and the prices of poll ${POLLS}`,
    (screen) => /Contacts/.test(screen) && /\d+ on this page/.test(screen) && showsPricesAt(AT)(screen),
  );
  const [first, firstNext] = [market(AT)[0]!, market(AT + STEP_MS)[0]!];
  // Otherwise the detail view's picture could be read before the next poll is drawn.
  if (formatPrice(first.price) === formatPrice(firstNext.price)) throw new Error(`${first.symbol} is priced alike at two polls; choose another AT`);
  // The keymap's: Tab to the ticker, Enter on its first row opens that symbol's chart.
  app.send('\t');
  if ((await app.until(() => /▸ Ticker/.test(app.text()), WAIT_MS)) === undefined) throw new Error('Tab did not focus the ticker');
  app.send('\r');
  const detail = await capture(
    app,
    `${first.symbol}'s chart at the prices of poll ${POLLS + 1}`,
    (screen) =>
      screen.includes(`${first.symbol} · `) &&
      / 1h +1d +5d +1m +all /.test(screen) &&
      /[\u2801-\u28ff]/.test(screen) &&
      screen.includes(`┃ ${formatPrice(firstNext.price)} `),
  );
  return { dashboard, detail, symbol: first.symbol };
}

async function main(): Promise<void> {
  let app: PtyApp | undefined;
  try {
    if (spawnSync('script', ['--version']).error) throw new Error("util-linux's `script` is not on PATH: it gives the dashboard its pseudo-terminal");
    await prepare();
    app = new PtyApp({ argv: [join(root, 'bin/tickbook')], env, columns: COLUMNS, rows: ROWS, unicode11: true });
    const { dashboard, detail, symbol } = await shoot(app);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'dashboard.svg'), terminalSvg(dashboard, { title: `tickbook's dashboard: contacts beside a live watchlist (${COLUMNS}x${ROWS})` }));
    writeFileSync(join(out, 'detail.svg'), terminalSvg(detail, { title: `tickbook's detail view of ${symbol}: the day's figures and a chart of the last day (${COLUMNS}x${ROWS})` }));
    process.stdout.write(`wrote ${join(out, 'dashboard.svg')} and ${join(out, 'detail.svg')}\n`);
  } catch (error) {
    process.stderr.write(`screenshot: ${(error as Error).message}${app ? `; the screen:\n${app.text()}` : ''}\n`);
    process.exitCode = 1;
  } finally {
    await app?.quit('q');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
