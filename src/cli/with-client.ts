// Runs a subcommand body with an open client, and always closes it (and the embedded sandbox).
import { ConfigError } from '../config/config-file.js';
import type { ConnectionFlags } from '../config/connection.js';
import { connectionFlags } from './connection-options.js';
import { openClient, type OpenClientOptions, type OpenedClient } from './open-client.js';
import { untilReaderGone } from './stdio.js';
import { UsageError } from './usage.js';

export async function withClient<T>(
  values: Parameters<typeof connectionFlags>[0] & { 'debug-log'?: string | undefined },
  body: (opened: OpenedClient) => Promise<T>,
  extra: Pick<OpenClientOptions, 'onRequest' | 'openSandboxLater'> & {
    onWarning?: (warning: string) => void;
    /**
     * The body sees its output go away itself and ends in its own time (the dashboard sends a
     * pending delete first): it is not abandoned, its client not closed under it.
     */
    ownsOutput?: boolean;
    /** The flags already made from `values` (their credential files read once). */
    flags?: ConnectionFlags;
  } = {},
): Promise<T> {
  let opened: OpenedClient;
  try {
    opened = await openClient({
      flags: extra.flags ?? connectionFlags(values),
      debugLogPath: values['debug-log'],
      onRequest: extra.onRequest,
      onWarning: extra.onWarning,
      openSandboxLater: extra.openSandboxLater,
    });
  } catch (error) {
    // A bad URL in flags, environment or config file is a usage mistake, not a failed call.
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  for (const warning of opened.warnings) {
    if (extra.onWarning) extra.onWarning(warning);
    else process.stderr.write(`tickbook: warning: ${warning}\n`);
  }
  try {
    return await (extra.ownsOutput ? body(opened) : untilReaderGone(body(opened)));
  } finally {
    await opened.close();
  }
}
