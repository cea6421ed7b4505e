// `tickbook alerts`: price alerts kept in the history file, set, listed, paused and removed from
// the shell, and watched headless (`alerts watch`) for cron, systemd or a script.
import { ALERTS_OPTIONS } from './options.js';
import { AlertCommands } from '../alerts/command-runner.js';
import { configFilePath, readConfigFile } from '../config/config-file.js';
import type { TickbookClient } from '../api/client.js';
import { type AlertCondition, armingWords, describeCondition, whenSetWords } from '../market/alerts.js';
import { ALERT_KINDS, conditionFrom } from '../market/alert-grammar.js';
import type { AlertsStore, Firing, StoredAlert } from '../store/alerts-store.js';
import { withHistoryFile } from './history-file.js';
import type { HistoryStore } from '../store/history-store.js';
import type { HistoryUse } from '../store/history-use.js';
import { formatPrice } from '../text/numbers.js';
import { clockTime, localDateTime } from '../text/time.js';
import { CONNECTION_HELP } from './connection-options.js';
import { sourceFor } from './history.js';
import { formatOf, renderTable, writeJson, writeNdjson } from './output.js';
import { pollUntilStopped, troubleOnStderr, warn } from './poll-loop.js';
import { integerOption, parseCommandLine, symbolList, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const ALERTS_HELP = `Usage: tickbook alerts add SYMBOL above|below PRICE [--once]
       tickbook alerts add SYMBOL move PCT [--from open|close|set] [--once]
       tickbook alerts add SYMBOL stale POLLS [--once]
       tickbook alerts list|log [--json]
       tickbook alerts rm|pause|resume ID
       tickbook alerts watch [--interval N] [--ndjson]

Price alerts, kept with the recorded prices for the server they watch. An alert fires when its
condition becomes true (a price crossing its line, not one sitting past it), once, and again
only after the price has gone back past the line by 0.25%; --once fires it once only. add
checks the condition against the price now (a move against the open or close recorded in the
history file): one that holds then, or that cannot be told (no price, nothing recorded to
measure the move from), is armed by the first price where it does not hold (no band) and fires
at the next crossing, never at its first poll for holding already; add says which, and list
what one not armed waits for. An alert's number is never given again; log keeps a removed
alert's firings, marked removed, with the symbol and condition each fired for.
  above|below PRICE         the price at or above, at or below PRICE
  move PCT                  a move of PCT percent: 5 either way, +5 up, -5 down, measured from
                            --from open (the day's first recorded price; the default), close
                            (the last recorded day's close) or set (the price when set)
  stale POLLS               no new price for POLLS polls in a row
  list                      every alert, with its id and state (armed, or what it waits for:
                            "waits for a price below 199.50"); log: the last 100 firings
  watch                     ask for the alerts' prices every --interval seconds (1 to 3600,
                            default 5) and print each firing as it happens (with --ndjson one
                            object a line: id, symbol, condition, price, time), until Ctrl-C
                            or the reader leaves, exit 0. Prices are recorded as quote --watch
                            records them; two watchers never announce one crossing twice.
                            The config's alerts.command runs for each firing, as in the
                            dashboard: without TICKBOOK_TOKEN and TICKBOOK_API_KEY in its
                            environment, one at a time per alert, ended after 60 s and when
                            the watch ends.

list and log read a history file tickbook may not write (read-only, a full disk); the other
actions change nothing in one and say which file and why, exit 1. A damaged file is moved aside
and a new one started, with the alerts it still lets be read, and a change made there once; one
that is not a regular file (a FIFO, a socket) is refused saying what it is. watch waits for a
history another process holds (said once on stderr) and fires what still crosses once it is free.

${CONNECTION_HELP}`;


/** The condition the words after the symbol give. */
export function parseCondition(words: readonly string[], from: string | undefined): AlertCondition {
  const [kind, value, ...rest] = words;
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  if (!(ALERT_KINDS as readonly (string | undefined)[]).includes(kind)) {
    throw new UsageError(`expected above, below, move or stale after the symbol, not ${JSON.stringify(kind ?? '')}`);
  }
  const condition = conditionFrom(kind, value, from, 'option --from');
  if (typeof condition === 'string') throw new UsageError(condition);
  return condition;
}

const stateOf = (alert: StoredAlert): string =>
  alert.done ? 'done' : alert.paused ? 'paused' : alert.armed ? 'armed' : 'waiting for a crossing';

/** What an alert not armed waits for ("a price below 199.50"); undefined when armed, paused or done. */
const waitsFor = (alert: StoredAlert): string | undefined =>
  alert.done || alert.paused || alert.armed ? undefined : armingWords(alert.condition, alert.band, formatPrice);

/** What each action does with the history file, in words for its errors. */
const READ: HistoryUse = { doing: 'read the alerts in', writes: false };
const CHANGE: HistoryUse = { doing: 'change the alerts in', writes: true };
const WATCH: HistoryUse = { doing: 'watch the alerts in', writes: true };

/** Opens the history file and its alerts for `body`, and closes it after. */
async function withAlerts<T>(use: HistoryUse, body: (history: HistoryStore, alerts: AlertsStore) => T | Promise<T>): Promise<T> {
  const { alertsOf } = await import('../store/alerts-store.js');
  return withHistoryFile(use, (history) => body(history, alertsOf(history)));
}

const idOf = (raw: string | undefined): number => {
  if (raw === undefined || !/^[0-9]+$/.test(raw)) throw new UsageError(`expected an alert id (a number, as alerts list shows it), not ${JSON.stringify(raw ?? '')}`);
  return Number(raw);
};

async function add(client: TickbookClient, source: string, words: readonly string[], values: { once?: boolean | undefined; from?: string | undefined }): Promise<number> {
  const [symbol] = symbolList('alerts add', words.slice(0, 1));
  if (symbol === undefined) throw new UsageError('expected a symbol: tickbook alerts add AAPL above 200');
  const condition = parseCondition(words.slice(1), values.from);
  // The price now says whether the condition holds already (then it waits for a crossing), with
  // the open or close recorded in the history file for a move (the store reads them), and is the
  // reference of a move "from set"; a symbol the server does not know is not saved.
  const result = await client.realtimePricing([symbol]);
  if (result.unknown.includes(symbol)) throw new UsageError(`the symbol ${symbol} is not known to the server`);
  const price = result.quotes.find((q) => q.symbol === symbol)?.price;
  // Said once it is made (committed): a change is one transaction (withHistoryFile).
  const alert = await withAlerts(CHANGE, (_, alerts) => alerts.add(source, symbol, condition, { price, at: Date.now(), oneShot: values.once === true }));
  const waits = whenSetWords(symbol, condition, alert.held, price, formatPrice);
  process.stdout.write(`alert ${alert.id}: ${symbol} ${describeCondition(condition, formatPrice)}${waits === undefined ? '' : ` (${waits})`}\n`);
  return 0;
}

/** alerts.command from the config file, run for each firing as the dashboard runs it. */
function alertCommandsOf(): AlertCommands | undefined {
  const command = readConfigFile(configFilePath()).config.alerts?.command;
  return command ? new AlertCommands({ command, env: process.env, onProblem: (line) => warn(`warning: ${line}`), onSkipped: (line) => warn(line) }) : undefined;
}

async function watch(client: TickbookClient, source: string, intervalS: number, ndjson: boolean): Promise<number> {
  const { PriceRecorder } = await import('../store/price-recorder.js');
  const commands = alertCommandsOf();
  // A closed terminal ends the watch as it would have ended it, but not before the commands it
  // started (in process groups of their own, which the hang-up does not reach).
  const hangUp = () => {
    void commands!.stop().finally(() => process.kill(process.pid, 'SIGHUP'));
  };
  if (commands) process.once('SIGHUP', hangUp);
  // The alerts through the recorder, as the dashboard has them: a file found damaged while
  // watching is moved aside and the watch goes on (see price-recorder.ts).
  const recorder = new PriceRecorder({ source, onWarning: (w) => warn(`warning: ${w}`), onTrouble: troubleOnStderr(), doing: WATCH.doing });
  try {
    const { refuseReadOnly } = await import('../store/history-use.js');
    refuseReadOnly(recorder.path, WATCH);
    // A history that cannot be had is the watch's end: it is where the alerts are.
    await recorder.open({ required: true });
    const gone = new Set<string>();
    const say = (firings: readonly Firing[]) => {
      for (const firing of firings) {
        commands?.run(firing);
        if (ndjson) {
          const condition = describeCondition(firing.condition, formatPrice);
          writeNdjson([{ id: firing.alert, symbol: firing.symbol, condition, price: firing.price ?? null, time: new Date(firing.at).toISOString() }]);
        } else {
          process.stdout.write(`${clockTime(firing.at, true)}  #${firing.alert} ${firing.text}\n`);
        }
      }
    };
    return await pollUntilStopped(
      async (signal) => {
        // Alerts added or removed meanwhile (by another process) count from the next poll.
        const symbols = recorder.alertSymbols();
        if (symbols.length === 0) return;
        const result = await client.realtimePricing(symbols, { signal });
        const now = Date.now();
        // A symbol the server stopped serving never fires again: said once, not silently.
        for (const symbol of result.unknown) {
          if (gone.has(symbol)) continue;
          gone.add(symbol);
          warn(`warning: the server does not serve ${symbol}: its alerts cannot fire (tickbook alerts rm ID removes them)`);
        }
        for (const symbol of gone) if (!result.unknown.includes(symbol) && symbols.includes(symbol)) gone.delete(symbol);
        recorder.record(result.quotes, now);
        say(recorder.alertsOnPoll(symbols, result.quotes, now));
      },
      // A failed poll is a poll without a price for every symbol watched: stale alerts count it.
      { intervalS, onFailure: () => say(recorder.alertsOnPoll([], undefined, Date.now())) },
    );
  } finally {
    recorder.close();
    process.off('SIGHUP', hangUp);
    await commands?.stop();
  }
}

export async function alerts(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, ALERTS_OPTIONS, true);
  const [action, ...words] = positionals;
  if (values.help || action === undefined) {
    process.stdout.write(ALERTS_HELP);
    return values.help ? 0 : 2;
  }
  const format = formatOf(values, action === 'watch' || action === 'log' || action === 'list');
  const intervalS = integerOption('interval', values.interval, 1, 3600);
  if (intervalS !== undefined && action !== 'watch') throw new UsageError('option --interval is for alerts watch');
  switch (action) {
    case 'add':
      return withClient(values, ({ client, historySource }) => add(client, historySource, words, values));
    case 'watch':
      if (format === 'json') throw new UsageError('alerts watch prints as it goes: use --ndjson, not --json');
      return withClient(values, ({ client, historySource }) => watch(client, historySource, intervalS ?? 5, format === 'ndjson'));
    case 'list':
      return withAlerts(READ, (_, alerts) => {
        const all = alerts.list(sourceFor(values));
        const rows = all.map((a) => ({ id: a.id, symbol: a.symbol, condition: describeCondition(a.condition, formatPrice), state: stateOf(a), waits_for: waitsFor(a) ?? null, once: a.oneShot, set_price: a.setPrice ?? null, set_at: new Date(a.setAt).toISOString() }));
        if (format === 'json') writeJson({ status: 'success', alerts: rows });
        else if (format === 'ndjson') writeNdjson(rows);
        else if (rows.length === 0) process.stderr.write('tickbook: no alerts: tickbook alerts add AAPL above 200\n');
        else process.stdout.write(renderTable([{ title: 'ID', align: 'right' }, { title: 'SYMBOL' }, { title: 'CONDITION' }, { title: 'STATE' }, { title: 'SET' }], all.map((a, i) => [String(a.id), a.symbol, rows[i]!.condition + (a.oneShot ? ', once' : ''), rows[i]!.waits_for === null ? rows[i]!.state : `waits for ${rows[i]!.waits_for}`, localDateTime(a.setAt)])));
        return 0;
      });
    case 'log':
      return withAlerts(READ, (_, alerts) => {
        const firings = alerts.firings(sourceFor(values));
        const rows = firings.map((f) => ({
          id: f.alert,
          symbol: f.symbol,
          condition: f.condition === undefined ? null : describeCondition(f.condition, formatPrice),
          removed: f.removed,
          price: f.price ?? null,
          time: new Date(f.at).toISOString(),
          text: f.text,
        }));
        if (format === 'json') writeJson({ status: 'success', firings: rows });
        else if (format === 'ndjson') writeNdjson(rows);
        else process.stdout.write(renderTable([{ title: 'TIME' }, { title: 'ID', align: 'right' }, { title: 'WHAT' }], firings.map((f) => [localDateTime(f.at), f.removed ? `${f.alert} (removed)` : String(f.alert), f.text])));
        return 0;
      });
    case 'rm':
    case 'pause':
    case 'resume': {
      const id = idOf(words[0]);
      if (words.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(words[1])}`);
      const source = sourceFor(values);
      const done = await withAlerts(CHANGE, (_, alerts) => (action === 'rm' ? alerts.remove(source, id) : alerts.pause(source, id, action === 'pause')));
      if (!done) {
        process.stderr.write(`tickbook: no alert ${id} for this server (tickbook alerts list shows them)\n`);
        return 1;
      }
      process.stdout.write(`alert ${id} ${action === 'rm' ? 'removed' : action === 'pause' ? 'paused' : 'resumed'}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown alerts action ${JSON.stringify(action)}: add, list, log, rm, pause, resume or watch`);
  }
}
