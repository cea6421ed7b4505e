// Where tickbook connects, resolved flags > environment > config file. With no base URL
// anywhere, the answer is the embedded sandbox. Also which credential may go where: one saved in
// the config file only to the origin saved beside it, and none over plain http off this machine
// unless the user says the network is trusted.
import type { Withheld } from '../api/client.js';
import { credentialProblem, isLoopbackHost, parseBaseUrl } from '../api/rules.js';
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

export type { Withheld };

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

/** The first credential given, flag > environment > config file. */
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
  return candidates.find((c) => c !== undefined);
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
  // A saved credential belongs where the file points, one URL standing for both as above. A
  // saved URL that is not one (and is overridden, or it would have been refused) binds nothing.
  const savedOrigin = (raw: string | undefined): string | undefined => {
    if (!given(raw)) return undefined;
    const parsed = parseBaseUrl(raw, 'a saved URL');
    return parsed instanceof URL ? parsed.origin : undefined;
  };
  const fileContacts = savedOrigin(file.base_url) ?? savedOrigin(file.market_data_url);
  const fileMarket = savedOrigin(file.market_data_url) ?? savedOrigin(file.base_url);
  // Saved, the opt-in is for the servers saved beside it; given for this run, for wherever it points.
  const insecureFor = (origin: string): string | undefined =>
    flags.insecureHttp === true
      ? '--insecure-http'
      : file.insecure_http === true && (origin === fileContacts || origin === fileMarket)
        ? `"insecure_http": true in ${configPath}`
        : undefined;

  const warnings: string[] = [];
  const withheld: Withheld = {};
  const decide = (kind: CredentialKind, url: URL, credential: Credential | undefined): string | undefined => {
    const origin = url.origin;
    if (credential === undefined) return `no ${kind.what} for ${origin}: ${howToGive(kind, origin)}`;
    if (credential.savedFor !== undefined && credential.savedFor !== origin) {
      const saved = credential.savedFor === null ? 'with no URL beside it' : `for ${credential.savedFor}`;
      return `not sending the ${kind.what} from ${credential.from} to ${origin}: it is saved ${saved}; ${howToGive(kind, origin)}`;
    }
    // Checked only for a credential that would go: one withheld anyway stops nothing.
    const problem = credentialProblem(credential.value);
    if (problem !== undefined) throw new ConfigError(`${credential.from}: the ${kind.what} has ${problem}`);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      const optIn = insecureFor(origin);
      if (optIn === undefined) {
        return (
          `not sending the ${kind.what} to ${origin} over plain http, where anyone on the network can read it: ` +
          `use https://, or give --insecure-http (or save "insecure_http": true beside that URL) if this network is trusted`
        );
      }
      warnings.push(`the ${kind.what} travels unencrypted to ${url.host} (${optIn})`);
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
