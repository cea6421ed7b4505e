// Which way a request goes: straight to its host, or through the proxy that HTTPS_PROXY,
// HTTP_PROXY, ALL_PROXY and NO_PROXY name, read as curl, npm and gh read them. The dispatchers
// for each way are made here, once each.
import { BlockList, isIP } from 'node:net';
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { isLoopbackHost, withoutUserinfo } from './rules.js';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

export interface ProxyChoice {
  /** The proxy's URL, user info included: it is the proxy's own login. */
  url: URL;
  /** The variable it came from. */
  variable: string;
  /** "127.0.0.1:3128 (HTTPS_PROXY)": for messages, never with the user info. */
  shown: string;
}

/** A proxy variable that cannot be used; the message shows no user info. */
export class ProxySettingError extends Error {}

/**
 * Lower case first, as curl and undici read them (Go reads upper case first; the two are nearly
 * always set alike). An https:// target never falls back to HTTP_PROXY (curl and Go agree; a
 * proxy named for plain HTTP may not tunnel), and ALL_PROXY is every scheme's fallback, as in curl.
 */
const VARIABLES: Record<string, readonly string[]> = {
  'http:': ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'],
  'https:': ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'],
};
const NO_PROXY = ['no_proxy', 'NO_PROXY'];
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy a request to `target` goes through, or undefined to go straight there. */
export function proxyFor(target: URL, env: ProxyEnv): ProxyChoice | undefined {
  // A proxy elsewhere cannot reach this machine's loopback, and one here gains nothing but a
  // copy of the credential: like gh (Go), never through a proxy, whatever NO_PROXY says.
  if (isLoopbackHost(target.hostname)) return undefined;
  const variable = (VARIABLES[target.protocol] ?? []).find((name) => nonEmpty(env[name]));
  if (variable === undefined) return undefined;
  const noProxy = NO_PROXY.map((name) => env[name]).find(nonEmpty);
  if (noProxy !== undefined && bypasses(target, noProxy)) return undefined;
  return parseProxy(variable, env[variable]!.trim());
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function parseProxy(variable: string, raw: string): ProxyChoice {
  // curl reads "proxy.corp:3128" as http://proxy.corp:3128.
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  const shownRaw = withoutUserinfo(written);
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    throw new ProxySettingError(`${variable} ${JSON.stringify(shownRaw)} is not a proxy URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxySettingError(`${variable} ${JSON.stringify(shownRaw)}: only http:// and https:// proxies are supported`);
  }
  return { url, variable, shown: `${url.host} (${variable})` };
}

/** Whether NO_PROXY's `list` exempts `target`: curl's rules. */
export function bypasses(target: URL, list: string): boolean {
  const host = bare(target.hostname);
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  for (const raw of list.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    // "host:port", "[::1]:8080"; a bare IPv6 address has colons but no port.
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    const name = bare(withPort ? withPort[1]! : entry).replace(/^\*?\./, '').replace(/\.$/, '');
    if (withPort && Number(withPort[2]) !== port) continue;
    if (name.includes('/')) {
      if (inCidr(host, name)) return true;
    } else if (host === name || (isIP(host) === 0 && host.endsWith(`.${name}`))) {
      // An address matches itself or a range, never as a name's suffix would ("0.0.1").
      return true;
    }
  }
  return false;
}

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

function inCidr(host: string, cidr: string): boolean {
  const [network = '', bits = ''] = cidr.split('/');
  const family = isIP(network);
  if (family === 0 || isIP(host) !== family || !/^\d+$/.test(bits)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  try {
    list.addSubnet(network, Number(bits), type);
  } catch {
    return false;
  }
  return list.check(host, type);
}

export interface Route {
  dispatcher: Dispatcher;
  proxy: ProxyChoice | undefined;
}

/**
 * The dispatchers of one client: a direct keep-alive Agent, and one ProxyAgent per proxy in use.
 * Without an environment (the embedded sandbox) every request goes direct.
 */
/**
 * undici, loaded with the first request rather than at start: it is the largest part of what
 * the CLI loads (about 100 ms of a dashboard's 650 ms to its first frame on a 2-core VM), and the
 * dashboard draws before it asks for anything. Only the parts the client uses (undici-parts.ts).
 */
type Undici = typeof import('./undici-parts.js');
let undici: Promise<Undici> | undefined;
const loadUndici = (): Promise<Undici> => (undici ??= import('./undici-parts.js'));

export class Dispatchers {
  readonly #env: ProxyEnv | undefined;
  readonly #connectMs: number;
  #direct: Agent | undefined;
  /** Bounded: the environment is read once, so at most one per proxy variable (HTTPS, HTTP, ALL). */
  readonly #proxies = new Map<string, ProxyAgent>();
  #destroyed = false;

  constructor(env: ProxyEnv | undefined, connectMs: number) {
    // A snapshot: a proxy changing under a running dashboard would be a surprise.
    this.#env = env && Object.fromEntries([...Object.values(VARIABLES).flat(), ...NO_PROXY].map((name) => [name, env[name]]));
    this.#connectMs = connectMs;
  }

  /** Rejects with ProxySettingError when the variable that applies is not a proxy URL. */
  async for(target: URL): Promise<Route> {
    // The setting is checked before anything is loaded: a bad proxy fails the same either way.
    const proxy = this.#env && proxyFor(target, this.#env);
    const { Agent, ProxyAgent } = await loadUndici();
    if (this.#destroyed) throw new Error('the client is closed');
    if (!proxy) {
      this.#direct ??= new Agent({ connect: { timeout: this.#connectMs }, ...POOL });
      return { dispatcher: this.#direct, proxy: undefined };
    }
    let agent = this.#proxies.get(proxy.url.href);
    if (!agent) {
      agent = new ProxyAgent({
        uri: proxy.url.href,
        ...POOL,
        // The proxy's own connection too: undici 8 offers HTTP/2 there as well.
        proxyTls: { timeout: this.#connectMs, allowH2: false },
        requestTls: { timeout: this.#connectMs },
        // Plain http:// goes as an absolute-URI request, as curl sends it: many proxies allow
        // CONNECT to port 443 only.
        proxyTunnel: false,
      });
      this.#proxies.set(proxy.url.href, agent);
    }
    return { dispatcher: agent, proxy };
  }

  /** Ends every connection at once. */
  async destroy(): Promise<void> {
    this.#destroyed = true;
    await Promise.all([...(this.#direct ? [this.#direct] : []), ...this.#proxies.values()].map((d) => d.destroy()));
  }
}

/**
 * Per origin, at most 8 connections, each closed after 30 s idle. A server restarting drops its
 * connections and the pool opens new ones in their place: nothing of the old ones is kept
 * (test/api/reconnects.test.ts polls through 40 restarts with descriptors flat).
 *
 * HTTP/1.1 only, as undici 7 spoke: undici 8 takes HTTP/2 whenever a TLS server offers it, and
 * what this client is measured and worded for (the pool above, its timeouts, every failure in
 * failures.ts, the benchmarks) is HTTP/1.1's (test/api/tls.test.ts, "a server that offers HTTP/2").
 */
const POOL = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, connections: 8, allowH2: false };
