// Where tickbook connects, resolved flags > environment > config file. With no base URL
// anywhere, the answer is the embedded sandbox. Also which credential may go where: one saved in
// the config file only to the origin saved beside it, and none over plain http off this machine
// unless the user says the network is trusted.
import { parseBaseUrl } from '../api/rules.js';
import { isLoopbackHost } from './loopback.js';
import { ConfigError, type ConfigFile } from './config-file.js';

export interface ConnectionFlags {
  baseUrl?: string | undefined;
  marketDataUrl?: string | undefined;
  token?: string | undefined;
  apiKey?: string | undefined;
  /** Where the token came from when not `--token` itself: `option --token-file ("t.txt")`. */
  tokenFrom?: string | undefined;
  apiKeyFrom?: string | undefined;
  /** `--insecure-http`: credentials may travel over plain http to hosts off this machine. */
  insecureHttp?: boolean | undefined;
}

/** Why a credential is not sent, in one line that says how to give one: for the call that needs it. */
export interface Withheld {
  token?: string;
  apiKey?: string;
}

export type Connection =
  | { mode: 'sandbox'; warnings: string[] }
  | {
      mode: 'remote';
      contactsUrl: string;
      marketDataUrl: string;
      token: string | undefined;
      apiKey: string | undefined;
      withheld: Withheld;
      warnings: string[];
    };

type Env = Readonly<Record<string, string | undefined>>;

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

function checkUrl(name: string, raw: string): URL {
  const parsed = parseBaseUrl(raw, name);
  if (parsed instanceof URL) return parsed;
  throw new ConfigError(parsed.problem);
}

interface Credential {
  value: string;
  /** Where it came from, as the user would write it: `option --token`, `TICKBOOK_TOKEN`. */
  from: string;
  /** The origin a saved credential belongs to; null when saved with no URL beside it. Only for the file. */
  savedFor?: string | null;
}

interface CredentialKind {
  /** In words: "bearer token", "API key". */
  what: string;
  flag: string;
  variable: string;
  key: 'token' | 'api_key';
}

const TOKEN: CredentialKind = { what: 'bearer token', flag: '--token', variable: 'TICKBOOK_TOKEN', key: 'token' };
const API_KEY: CredentialKind = { what: 'API key', flag: '--api-key', variable: 'TICKBOOK_API_KEY', key: 'api_key' };

/**
 * Refuses a credential that cannot be an HTTP header value, naming where it came from and never
 * showing it: a pasted line break would otherwise surface as a network failure, retried.
 */
export function checkCredentialText(value: string, from: string, what: string): void {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const at = `at character ${i + 1}`;
    if (code === 0x0a || code === 0x0d) {
      throw new ConfigError(`${from}: the ${what} has a line break ${at} (a ${what} is one line: was a newline copied with it?)`);
    }
    if (code < 0x20 || code === 0x7f) throw new ConfigError(`${from}: the ${what} has a control character ${at}`);
    if (code > 0xff) {
      throw new ConfigError(`${from}: the ${what} has a character HTTP cannot carry ${at} (outside Latin-1: is it the right value?)`);
    }
  }
}

/** The first credential given, flag > environment > config file, checked to be sendable. */
function pickCredential(
  kind: CredentialKind,
  flag: { value: string | undefined; from: string | undefined },
  env: Env,
  file: ConfigFile,
  configPath: string,
  savedFor: string | undefined,
): Credential | undefined {
  const candidates: (Credential | undefined)[] = [
    given(flag.value) ? { value: flag.value, from: flag.from ?? `option ${kind.flag}` } : undefined,
    given(env[kind.variable]) ? { value: env[kind.variable]!, from: kind.variable } : undefined,
    given(file[kind.key]) ? { value: file[kind.key]!, from: `"${kind.key}" in ${configPath}`, savedFor: savedFor ?? null } : undefined,
  ];
  const credential = candidates.find((c) => c !== undefined);
  if (credential) checkCredentialText(credential.value, credential.from, kind.what);
  return credential;
}

/** How to give this credential for `origin`, the end of every line saying one is missing. */
const howToGive = (kind: CredentialKind, origin: string): string =>
  `give one for ${origin} with ${kind.flag}-file FILE or ${kind.variable} (or save it in the config file beside the URL it belongs to)`;

export interface ResolveOptions {
  /** The config file's path, for messages. */
  configPath?: string;
}

export function resolveConnection(flags: ConnectionFlags, env: Env, file: ConfigFile, options: ResolveOptions = {}): Connection {
  const contacts = [flags.baseUrl, env.TICKBOOK_BASE_URL, file.base_url].find(given);
  const market = [flags.marketDataUrl, env.TICKBOOK_MARKET_DATA_URL, file.market_data_url].find(given);
  if (contacts === undefined && market === undefined) return { mode: 'sandbox', warnings: [] };

  // One origin serving both groups is common (the sandbox does it): one URL stands for both.
  const contactsUrl = checkUrl('the base URL', (contacts ?? market)!);
  const marketDataUrl = checkUrl('the market data URL', (market ?? contacts)!);
  const configPath = options.configPath ?? 'the config file';
  // A saved credential belongs where the file points: its own URLs, as resolved above.
  const savedUrl = (raw: string | undefined) => (given(raw) ? checkUrl('the base URL', raw).origin : undefined);
  const fileContacts = savedUrl(file.base_url);
  const fileMarket = savedUrl(file.market_data_url) ?? fileContacts;
  const insecure = flags.insecureHttp === true || file.insecure_http === true;
  const insecureFrom = flags.insecureHttp === true ? '--insecure-http' : `"insecure_http": true in ${configPath}`;

  const warnings: string[] = [];
  const withheld: Withheld = {};
  const decide = (kind: CredentialKind, url: URL, credential: Credential | undefined): string | undefined => {
    const origin = url.origin;
    if (credential === undefined) return `no ${kind.what} for ${origin}: ${howToGive(kind, origin)}`;
    if (credential.savedFor !== undefined && credential.savedFor !== origin) {
      const saved = credential.savedFor === null ? 'with no URL beside it' : `for ${credential.savedFor}`;
      return `not sending the ${kind.what} from ${credential.from} to ${origin}: it is saved ${saved}; ${howToGive(kind, origin)}`;
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      if (!insecure) {
        return (
          `not sending the ${kind.what} to ${origin} over plain http, where anyone on the network can read it: ` +
          `use https://, or give --insecure-http (or save "insecure_http": true) if this network is trusted`
        );
      }
      warnings.push(`the ${kind.what} travels unencrypted to ${url.host} (${insecureFrom})`);
    }
    return undefined;
  };
  const token = pickCredential(TOKEN, { value: flags.token, from: flags.tokenFrom }, env, file, configPath, fileContacts);
  const apiKey = pickCredential(API_KEY, { value: flags.apiKey, from: flags.apiKeyFrom }, env, file, configPath, fileMarket);
  const tokenProblem = decide(TOKEN, contactsUrl, token);
  const apiKeyProblem = decide(API_KEY, marketDataUrl, apiKey);
  if (tokenProblem !== undefined) withheld.token = tokenProblem;
  if (apiKeyProblem !== undefined) withheld.apiKey = apiKeyProblem;
  return {
    mode: 'remote',
    contactsUrl: contactsUrl.toString(),
    marketDataUrl: marketDataUrl.toString(),
    token: tokenProblem === undefined ? token?.value : undefined,
    apiKey: apiKeyProblem === undefined ? apiKey?.value : undefined,
    withheld,
    warnings,
  };
}
