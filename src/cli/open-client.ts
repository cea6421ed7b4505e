// Wiring for subcommands: resolve where to connect, start the embedded sandbox when nothing is
// configured, and build the one client over it.
import { TickbookClient } from '../api/client.js';
import type { RequestLogEntry } from '../api/transport.js';
import { readConfigFile, configFilePath } from '../config/config-file.js';
import { type ConnectionFlags, resolveConnection, type Withheld } from '../config/connection.js';
import { listenSandbox, type ListeningSandbox, openOrClose } from '../server/sandbox.js';
import { openDebugLog } from './debug-log.js';
import { contactsSource, historySource } from '../store/history-source.js';
import { resolve } from 'node:path';

export interface OpenClientOptions {
  flags: ConnectionFlags;
  env?: Readonly<Record<string, string | undefined>>;
  /** A file that gets one line per request, Authorization never included. */
  debugLogPath?: string | undefined;
  /** Also told of every request (the dashboard's status line). */
  onRequest?: ((entry: RequestLogEntry) => void) | undefined;
  /** Told once when the debug log stops being written (a full disk, a failing device). */
  onWarning?: ((warning: string) => void) | undefined;
  /**
   * The embedded sandbox only listens until its open() is called (the dashboard calls it once its
   * first frame is drawn); requests sent before wait. By default it is opened before this returns.
   */
  openSandboxLater?: boolean;
}

export interface OpenedClient {
  client: TickbookClient;
  /** The embedded sandbox, when no base URL was configured (opened, unless asked to wait). */
  sandbox: ListeningSandbox | undefined;
  /** Where requests go, in words, without secrets: "sandbox (in-process)" or host names. */
  target: string;
  /** The name recorded prices are kept under (historySource). */
  historySource: string;
  /** The name the contact list is indexed under (contactsSource). */
  contactsSource: string;
  warnings: string[];
  close(): Promise<void>;
}

export async function openClient(options: OpenClientOptions): Promise<OpenedClient> {
  const env = options.env ?? process.env;
  const configPath = configFilePath(env);
  const { config, warnings } = readConfigFile(configPath);
  const connection = resolveConnection(options.flags, env, config, { configPath });
  warnings.push(...connection.warnings);

  const log = options.debugLogPath
    ? openDebugLog(options.debugLogPath, options.onWarning ?? ((w) => process.stderr.write(`tickbook: warning: ${w}\n`)))
    : undefined;
  const listeners = [...(log ? [log.write] : []), ...(options.onRequest ? [options.onRequest] : [])];
  const onRequest =
    listeners.length === 0 ? undefined : (entry: RequestLogEntry) => listeners.forEach((listener) => listener(entry));

  let sandbox: ListeningSandbox | undefined;
  let endpoint: { contactsUrl: string; marketDataUrl: string; token: string | undefined; apiKey: string | undefined; withheld?: Withheld };
  if (connection.mode === 'sandbox') {
    // Its own credentials, never the public demo ones: another account on the machine can find
    // the port, and must not be able to use it.
    sandbox = await listenSandbox({ port: 0, inProcess: true });
    if (!options.openSandboxLater) {
      await openOrClose(sandbox).catch((error: unknown) => {
        log?.close();
        throw error;
      });
    }
    endpoint = { contactsUrl: sandbox.contactsUrl, marketDataUrl: sandbox.marketDataUrl, token: sandbox.token, apiKey: sandbox.apiKey };
  } else {
    const { contactsUrl, marketDataUrl, token, apiKey, withheld } = connection;
    endpoint = { contactsUrl, marketDataUrl, token, apiKey, withheld };
  }
  // The proxy variables are for the network: the in-process sandbox is reached directly.
  const client = new TickbookClient({ ...endpoint, ...(!sandbox && { proxyEnv: env }), ...(onRequest && { onRequest }) });
  const { contacts, marketData } = client.hosts;
  const target = sandbox ? 'sandbox (in-process)' : contacts === marketData ? contacts : `${contacts} + ${marketData}`;
  return {
    client,
    sandbox,
    target,
    historySource: historySource({ sandboxDbPath: sandbox && resolve(sandbox.dbPath), marketDataUrl: endpoint.marketDataUrl }),
    // The sandbox's token is new each run; the index is kept under the user it opens, which is not.
    contactsSource: contactsSource({ sandboxDbPath: sandbox && resolve(sandbox.dbPath), contactsUrl: endpoint.contactsUrl, token: sandbox?.credentials.actsAs ?? endpoint.token }),
    warnings,
    async close() {
      await client.close();
      await sandbox?.close();
      log?.close();
    },
  };
}
