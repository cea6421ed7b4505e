// Options every client subcommand shares: where to connect, how to log, how to print.
import { CONNECTION_OPTIONS } from './options.js';

export { CONNECTION_OPTIONS };
import type { ConnectionFlags } from '../config/connection.js';
import { readSecretFile } from './secret-file.js';
import { nonEmptyOption, UsageError } from './usage.js';


export const CONNECTION_HELP = `Connection (flags > environment > config file; none at all: the embedded sandbox):
  --base-url URL            contacts base URL        (TICKBOOK_BASE_URL)
  --market-data-url URL     market data base URL     (TICKBOOK_MARKET_DATA_URL; default: the base URL)
  --token-file FILE         read the contacts bearer token from FILE (- for standard input)
  --api-key-file FILE       read the market data API key from FILE (- for standard input)
  --token T                 contacts bearer token    (TICKBOOK_TOKEN; visible to ps: prefer --token-file)
  --api-key K               market data API key      (TICKBOOK_API_KEY; visible to ps: prefer --api-key-file)
  --insecure-http           allow credentials over plain http to hosts other than this machine
  --debug-log FILE          append one line per request to FILE (credentials never written)
Output:
  --json                    one JSON document with the API's own field names
  --ndjson                  one JSON object per line (lists)
  --screen-reader           words instead of marks and bars, progress as a line now and then
                            (TICKBOOK_SCREEN_READER=1)
  -h, --help                show this help
`;

export interface ConnectionValues {
  'base-url'?: string | undefined;
  'market-data-url'?: string | undefined;
  token?: string | undefined;
  'token-file'?: string | undefined;
  'api-key'?: string | undefined;
  'api-key-file'?: string | undefined;
  'insecure-http'?: boolean | undefined;
}

/** A credential given by value or by file, and where from; both at once is a mistake worth naming. */
function credential(values: ConnectionValues, name: 'token' | 'api-key'): { value?: string; from?: string } {
  const inline = nonEmptyOption(name, values[name]);
  const file = values[`${name}-file`];
  if (file === undefined) return inline === undefined ? {} : { value: inline };
  if (inline !== undefined) throw new UsageError(`give --${name} or --${name}-file, not both`);
  const value = readSecretFile(`${name}-file`, nonEmptyOption(`${name}-file`, file)!);
  return { value, from: `option --${name}-file (${file === '-' ? 'standard input' : JSON.stringify(file)})` };
}

/**
 * The connection flags, credentials read from their files. `stdinIsKeyboard`: the dashboard
 * reads keys from standard input, so `-` cannot give it a credential.
 */
export function connectionFlags(values: ConnectionValues, stdinIsKeyboard = false): ConnectionFlags {
  if (stdinIsKeyboard) {
    for (const name of ['token-file', 'api-key-file'] as const) {
      if (values[name] === '-') {
        throw new UsageError(`option --${name}: the dashboard reads its keys from standard input; give the ${name === 'token-file' ? 'token' : 'key'} in a file`);
      }
    }
  }
  // Before either is read: reading the first would wait for the end of standard input.
  if (values['token-file'] === '-' && values['api-key-file'] === '-') {
    throw new UsageError('--token-file and --api-key-file cannot both read standard input');
  }
  const token = credential(values, 'token');
  const apiKey = credential(values, 'api-key');
  return {
    baseUrl: nonEmptyOption('base-url', values['base-url']),
    marketDataUrl: nonEmptyOption('market-data-url', values['market-data-url']),
    token: token.value,
    tokenFrom: token.from,
    apiKey: apiKey.value,
    apiKeyFrom: apiKey.from,
    insecureHttp: values['insecure-http'] === true,
  };
}
