// Options every client subcommand shares: where to connect, how to log, how to print.
import type { ConnectionFlags } from '../config/connection.js';
import { nonEmptyOption } from './usage.js';

export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  'market-data-url': { type: 'string' },
  token: { type: 'string' },
  'api-key': { type: 'string' },
  'debug-log': { type: 'string' },
  json: { type: 'boolean' },
  ndjson: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CONNECTION_HELP = `Connection (flags > environment > config file; none at all: the embedded sandbox):
  --base-url URL            contacts base URL        (TICKBOOK_BASE_URL)
  --market-data-url URL     market data base URL     (TICKBOOK_MARKET_DATA_URL; default: the base URL)
  --token T                 contacts bearer token    (TICKBOOK_TOKEN)
  --api-key K               market data API key      (TICKBOOK_API_KEY)
  --debug-log FILE          append one line per request to FILE (credentials never written)
Output:
  --json                    one JSON document with the API's own field names
  --ndjson                  one JSON object per line (lists)
  -h, --help                show this help
`;

export function connectionFlags(values: {
  'base-url'?: string | undefined;
  'market-data-url'?: string | undefined;
  token?: string | undefined;
  'api-key'?: string | undefined;
}): ConnectionFlags {
  return {
    baseUrl: nonEmptyOption('base-url', values['base-url']),
    marketDataUrl: nonEmptyOption('market-data-url', values['market-data-url']),
    token: nonEmptyOption('token', values.token),
    apiKey: nonEmptyOption('api-key', values['api-key']),
  };
}
