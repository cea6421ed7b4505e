// Wiring for subcommands: resolve where to connect, start the embedded sandbox when nothing is
// configured, and build the one client over it.
import { closeSync, openSync, writeSync } from 'node:fs';
import { TickbookClient } from '../api/client.js';
import type { RequestLogEntry } from '../api/transport.js';
import { readConfigFile, configFilePath } from '../config/config-file.js';
import { type ConnectionFlags, resolveConnection, type Withheld } from '../config/connection.js';
import { fsReason } from '../config/fs-reason.js';
import { startSandbox, type Sandbox } from '../server/sandbox.js';
import { UsageError } from './usage.js';

export interface OpenClientOptions {
  flags: ConnectionFlags;
  env?: Readonly<Record<string, string | undefined>>;
  /** A file that gets one line per request, Authorization never included. */
  debugLogPath?: string | undefined;
  /** Also told of every request (the dashboard's status line). */
  onRequest?: ((entry: RequestLogEntry) => void) | undefined;
  /** Told once when the debug log stops being written (a full disk, a failing device). */
  onWarning?: ((warning: string) => void) | undefined;
}

export interface OpenedClient {
  client: TickbookClient;
  /** The embedded sandbox, when no base URL was configured. */
  sandbox: Sandbox | undefined;
  /** Where requests go, in words, without secrets: "sandbox (in-process)" or host names. */
  target: string;
  warnings: string[];
  close(): Promise<void>;
}

export function debugLogLine(entry: RequestLogEntry): string {
  const fields = [
    entry.time.toISOString(),
    entry.method,
    entry.url,
    entry.status === 0 ? '-' : String(entry.status),
    `${entry.ms.toFixed(1)}ms`,
    entry.requestId ?? '-',
    `retry=${entry.retry}`,
  ];
  if (entry.error) fields.push(JSON.stringify(entry.error));
  return `${fields.join(' ')}\n`;
}

/** Why a file could not be opened for appending, in words (the codes mean little to most people). */
const CANNOT_WRITE: Record<string, string> = {
  // Opening to append creates the file, so a missing entry is a directory on the way.
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

/**
 * Appends each request's line to the debug log. The first write that fails is reported once,
 * naming the option, and the log stops there: a log of the requests is no reason to stop the
 * requests themselves, nor to end a command that did its work with a stack trace.
 */
function debugLogWriter(path: string, fd: number, warn: (warning: string) => void): (entry: RequestLogEntry) => void {
  let failed = false;
  return (entry) => {
    if (failed) return;
    try {
      writeSync(fd, debugLogLine(entry));
    } catch (error) {
      failed = true;
      warn(`option --debug-log: cannot write ${JSON.stringify(path)} any more: ${fsReason(error)}; the log stops here`);
    }
  };
}

function openDebugLog(path: string): number {
  try {
    return openSync(path, 'a', 0o600);
  } catch (error) {
    const { code = '', message } = error as { code?: string; message: string };
    throw new UsageError(`option --debug-log: cannot write ${JSON.stringify(path)}: ${CANNOT_WRITE[code] ?? message}`);
  }
}

export async function openClient(options: OpenClientOptions): Promise<OpenedClient> {
  const env = options.env ?? process.env;
  const configPath = configFilePath(env);
  const { config, warnings } = readConfigFile(configPath);
  const connection = resolveConnection(options.flags, env, config, { configPath });
  warnings.push(...connection.warnings);

  const logFd = options.debugLogPath ? openDebugLog(options.debugLogPath) : undefined;
  const listeners = [
    ...(logFd === undefined || !options.debugLogPath
      ? []
      : [debugLogWriter(options.debugLogPath, logFd, options.onWarning ?? ((w) => process.stderr.write(`tickbook: warning: ${w}\n`)))]),
    ...(options.onRequest ? [options.onRequest] : []),
  ];
  const onRequest =
    listeners.length === 0 ? undefined : (entry: RequestLogEntry) => listeners.forEach((listener) => listener(entry));

  let sandbox: Sandbox | undefined;
  let endpoint: { contactsUrl: string; marketDataUrl: string; token: string | undefined; apiKey: string | undefined; withheld?: Withheld };
  if (connection.mode === 'sandbox') {
    sandbox = await startSandbox({ port: 0 });
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
    warnings,
    async close() {
      await client.close();
      await sandbox?.close();
      if (logFd !== undefined) {
        try {
          closeSync(logFd);
        } catch {
          // A close that fails (NFS, a failing disk) has lost nothing the writes did not report.
        }
      }
    },
  };
}
