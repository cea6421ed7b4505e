// Where tickbook connects, resolved flags > environment > config file. With no base URL
// anywhere, the answer is the embedded sandbox.
import { parseBaseUrl } from '../api/rules.js';
import { isLoopbackHost } from './loopback.js';
import { ConfigError, type ConfigFile } from './config-file.js';

export interface ConnectionFlags {
  baseUrl?: string | undefined;
  marketDataUrl?: string | undefined;
  token?: string | undefined;
  apiKey?: string | undefined;
}

export type Connection =
  | { mode: 'sandbox'; warnings: string[] }
  | {
      mode: 'remote';
      contactsUrl: string;
      marketDataUrl: string;
      token: string | undefined;
      apiKey: string | undefined;
      warnings: string[];
    };

type Env = Readonly<Record<string, string | undefined>>;

const pick = (...values: (string | undefined)[]): string | undefined => values.find((v) => v !== undefined && v !== '');

function checkUrl(name: string, raw: string): URL {
  const parsed = parseBaseUrl(raw, name);
  if (parsed instanceof URL) return parsed;
  throw new ConfigError(parsed.problem);
}

export function resolveConnection(flags: ConnectionFlags, env: Env, file: ConfigFile): Connection {
  const contacts = pick(flags.baseUrl, env.TICKBOOK_BASE_URL, file.base_url);
  const market = pick(flags.marketDataUrl, env.TICKBOOK_MARKET_DATA_URL, file.market_data_url);
  if (contacts === undefined && market === undefined) return { mode: 'sandbox', warnings: [] };

  // One origin serving both groups is common (the sandbox does it): one URL stands for both.
  const contactsUrl = checkUrl('the base URL', (contacts ?? market)!);
  const marketDataUrl = checkUrl('the market data URL', (market ?? contacts)!);
  const token = pick(flags.token, env.TICKBOOK_TOKEN, file.token);
  const apiKey = pick(flags.apiKey, env.TICKBOOK_API_KEY, file.api_key);

  const warnings: string[] = [];
  const plain = (url: URL, secret: string | undefined, what: string) => {
    if (secret && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      warnings.push(`the ${what} would travel unencrypted to ${url.host}: use https://`);
    }
  };
  plain(contactsUrl, token, 'bearer token');
  plain(marketDataUrl, apiKey, 'API key');
  return {
    mode: 'remote',
    contactsUrl: contactsUrl.toString(),
    marketDataUrl: marketDataUrl.toString(),
    token,
    apiKey,
    warnings,
  };
}
