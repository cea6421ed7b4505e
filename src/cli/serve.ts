// `tickbook serve`: the sandbox as a standalone server for any HTTP client.
import { SERVE_OPTIONS } from './options.js';
import { DatabaseOpenError, MarketMismatchError } from '../server/store-errors.js';
import { readerGone } from './stdio.js';
import { startSandbox, type Sandbox } from '../server/sandbox.js';
import { DEMO_CONTACTS_MAX } from '../server/demo-data.js';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, seconds } from '../server/request-deadlines.js';
import { integerOption, nonEmptyOption, parseCommandLine, UsageError } from './usage.js';

export const SERVE_HELP = `Usage: tickbook serve [options]

Runs the sandbox: a real server of the whole interface (contacts and market data) on one port.

Options:
  --host HOST               address to bind (default 127.0.0.1); an address other than
                            loopback needs --token and --api-key
  --port N                  port (default 8080; 0 picks a free one)
  --db PATH                 SQLite database (default $XDG_DATA_HOME/tickbook/sandbox.db): a
                            regular file, or none yet (made 0600, also where a link of yours
                            to nothing points); a FIFO, a device, a socket, a directory or
                            another user's link is refused saying what it is
  --seed N                  market seed of a new database, 0 to 4294967295 (default:
                            random, printed at start); a database keeps its market, and
                            a different seed on it is refused
  --reset-market            start the database's market again: with --seed N, or random
  --no-demo-data            do not fill a new database with demo contacts
  --demo-contacts N         fill a new database with N demo contacts, the demo people
                            over and over with numbered usernames (default: about 60;
                            at most 100000), to try a long list
  --rate-limit N            allow N requests per second per credential (default: off)
  --token T                 accept bearer token T for contacts (repeatable; default demo-token)
  --api-key K               accept market data API key K (repeatable; default demo-key)
  --restricted-api-key K    a market key that always answers 401 permission_error
                            (repeatable; default demo-restricted-key)
  -h, --help                show this help

A client must send its request line and headers within ${seconds(HEADERS_TIMEOUT_MS)} and the whole request within
${seconds(REQUEST_TIMEOUT_MS)}, counted from the connection's start (or the request's first byte on a kept-alive
one); past either, it is answered 408 request_timeout and the connection is closed. The time
taken to answer is not limited.
`;


const MARKET_ORIGIN: Record<Sandbox['marketOrigin'], string> = {
  new: 'new; the database keeps it',
  reset: 'reset; the database keeps it',
  kept: "the database's",
};

function describe(sandbox: Sandbox): string {
  const { credentials, demoCredentials } = sandbox;
  const show = (list: readonly string[], demo: boolean): string =>
    // Secrets given on the command line are never echoed, not even in part.
    demo ? list.join(', ') : `${list.length} given on the command line`;
  return [
    'tickbook sandbox',
    `  contacts base_url:        ${sandbox.contactsUrl}`,
    `  market_data_url:          ${sandbox.marketDataUrl}`,
    `  bearer token (contacts):  ${show(credentials.tokens, demoCredentials.tokens)}`,
    `  API key (market data):    ${show(credentials.apiKeys, demoCredentials.apiKeys)}`,
    `  restricted API key:       ${show(credentials.restrictedApiKeys, credentials.restrictedApiKeys[0] === 'demo-restricted-key')}  (always 401 permission_error)`,
    `  database:                 ${sandbox.dbPath}${sandbox.seededDemoData ? '  (new: filled with demo contacts)' : ''}` +
      (sandbox.readOnly ? `  (read-only: ${sandbox.readOnly}; reads are served, writes refused)` : ''),
    `  market seed:              ${sandbox.seed}  (${MARKET_ORIGIN[sandbox.marketOrigin]}, since ` +
      `${new Date(sandbox.marketEpochMs).toISOString()}: every process on it prices alike)`,
    '',
  ].join('\n');
}

/**
 * The request log, a line a request, written once a turn of the event loop rather than once a
 * request: a write a request cost a tenth of the list's time under load. Flushed before the
 * process says it is stopping, so nothing is lost at shutdown.
 */
const requestLog = (() => {
  const pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    process.stdout.write(pending.join(''));
    pending.length = 0;
  };
  return {
    line: (line: string): void => {
      pending.push(`${line}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
})();

export async function serve(args: readonly string[]): Promise<number> {
  const { values } = parseCommandLine(args, SERVE_OPTIONS, false);
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const options = {
    host: nonEmptyOption('host', values.host),
    port: integerOption('port', values.port, 0, 65535) ?? 8080,
    dbPath: nonEmptyOption('db', values.db),
    seed: integerOption('seed', values.seed, 0, 2 ** 32 - 1),
    resetMarket: values['reset-market'] === true,
    demoData: !values['no-demo-data'],
    demoContacts: integerOption('demo-contacts', values['demo-contacts'], 1, DEMO_CONTACTS_MAX),
    rateLimit: integerOption('rate-limit', values['rate-limit'], 1, 1_000_000),
    tokens: values.token?.map((t) => nonEmptyOption('token', t)!),
    apiKeys: values['api-key']?.map((k) => nonEmptyOption('api-key', k)!),
    restrictedApiKeys: values['restricted-api-key']?.map((k) => nonEmptyOption('restricted-api-key', k)!),
    log: requestLog.line,
  };

  if (options.demoContacts !== undefined && !options.demoData) {
    throw new UsageError('option --demo-contacts fills a new database with demo contacts, which --no-demo-data turns off: give one of them');
  }

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code === 'EADDRINUSE') throw new Error(`cannot listen on port ${options.port}: it is already in use`, { cause: error });
    if (code === 'EADDRNOTAVAIL') throw new Error(`cannot listen on ${options.host}: no such local address`, { cause: error });
    if (/refusing to serve/.test(message)) throw new UsageError(message);
    // A --db the user typed that cannot be a database is a mistake in the command line; the
    // default place failing is not (the line still names it and why).
    if (error instanceof DatabaseOpenError && options.dbPath !== undefined) {
      throw new UsageError(`option --db ${error.path}: ${error.reason}`);
    }
    if (error instanceof MarketMismatchError) {
      throw new UsageError(
        `option --seed ${options.seed}: the database ${error.path} keeps its market with seed ${error.stored.seed}; ` +
          `leave --seed out to use it, or add --reset-market to start a new market with seed ${options.seed}`,
      );
    }
    throw error;
  }
  // Handlers go in before "listening on" is printed: a supervisor may signal as soon as it reads it.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write('tickbook: stopping now\n');
        process.exit(130);
      }
      stopping = true;
      process.stderr.write(`tickbook: ${signal}: finishing in-flight requests, then stopping\n`);
      void sandbox.close().then(() => {
        requestLog.flush();
        resolve(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // Its log's reader gone (`tickbook serve | head`): stop as for SIGTERM, saying nothing more.
    readerGone.addEventListener(
      'abort',
      () => {
        if (stopping) return;
        stopping = true;
        void sandbox.close().then(() => {
          requestLog.flush();
          resolve(0);
        });
      },
      { once: true },
    );
  });
  process.stdout.write(describe(sandbox));
  if (options.demoContacts !== undefined && !sandbox.seededDemoData) {
    process.stderr.write(`tickbook serve: --demo-contacts fills only a new database; ${sandbox.dbPath} already existed and keeps its contacts\n`);
  }
  requestLog.flush();
  process.stdout.write(`listening on ${sandbox.url}\n`);
  return stopped;
}
