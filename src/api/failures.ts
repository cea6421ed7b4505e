// A request that got no usable answer (refused, timed out, dropped, a certificate not trusted, a
// proxy in the way), in words that say what is wrong and where to look, and whether trying again
// could help.
import type { ApiErrorKind } from './errors.js';
import type { ProxyChoice } from './proxy.js';

export interface Failure {
  kind: ApiErrorKind;
  message: string;
  /** Trying again cannot help: the same certificate, the same malformed header, the same proxy rule. */
  final: boolean;
}

export interface FailureContext {
  url: URL;
  proxy: ProxyChoice | undefined;
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

const TRUST_HINT = 'if you trust it, start tickbook with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (the certificate of the authority that signed it, in PEM)';

/** Certificate problems, worded after "HOST's TLS certificate". */
const CERTIFICATE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: `is self-signed, so it cannot be verified; ${TRUST_HINT}`,
  SELF_SIGNED_CERT_IN_CHAIN: `is signed by an authority this machine does not trust (a private CA, or a proxy that inspects TLS); ${TRUST_HINT}`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `is signed by an authority this machine does not know (a private CA, or a server that does not send its intermediate certificates); ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT: `is signed by an authority this machine does not know; ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `is signed by an authority this machine does not know (a private CA, or a proxy that inspects TLS); ${TRUST_HINT}`,
  CERT_UNTRUSTED: `is not trusted for this use; ${TRUST_HINT}`,
  CERT_HAS_EXPIRED: 'has expired (or this machine\'s clock is wrong)',
  CERT_NOT_YET_VALID: 'is not valid yet (or this machine\'s clock is wrong)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'is for another host name: use a name the certificate holds in the URL',
};

/**
 * Failures before the request reached the server: retrying them cannot repeat an effect. A proxy
 * that closes the connection before the tunnel is open (UND_ERR_PRX_CONN) is one.
 */
export const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_PRX_CONN']);

export function describeFailure(caught: unknown, context: FailureContext): Failure {
  const { url, proxy } = context;
  const code = errorCode(caught);
  const host = url.host;
  const message = (caught as { message?: unknown })?.message;
  const text = typeof message === 'string' ? message : '';

  // A certificate that does not verify is the same on every try.
  const certificate = CERTIFICATE[code];
  if (certificate !== undefined) {
    // Through an https:// proxy the certificate at fault may be the proxy's own.
    const subject = proxy?.url.protocol === 'https:' ? `${host}'s (or the proxy ${proxy.shown}'s)` : `${host}'s`;
    return { kind: 'protocol', message: `${subject} TLS certificate ${certificate}`, final: true };
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && /wrong version number/i.test(text))) {
    return { kind: 'protocol', message: `${host} does not speak TLS on this port: is the URL http:// rather than https://?`, final: true };
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_')) {
    return { kind: 'protocol', message: `the TLS handshake with ${host} failed (${code})`, final: true };
  }

  const refused = /^Proxy response \((\d+)\)/.exec(text)?.[1] ?? (/Proxy Authentication Required \(407\)/.test(text) ? '407' : undefined);
  if (proxy && refused !== undefined) {
    const status = Number(refused);
    if (status === 407) {
      return {
        kind: 'network',
        message: `the proxy ${proxy.shown} asks for a user name and password (HTTP 407): give them in ${proxy.variable} as http://user:password@host:port`,
        final: true,
      };
    }
    // A proxy's 502 or 504 is its way to say the host could not be reached, which may pass.
    return { kind: 'network', message: `the proxy ${proxy.shown} would not connect to ${host} (HTTP ${status})`, final: status < 500 };
  }
  if (code === 'UND_ERR_INVALID_ARG') {
    return { kind: 'invalid', message: `the request to ${host} could not be sent: a header holds a character HTTP does not allow`, final: true };
  }

  const seconds = (ms: number) => `${ms / 1000} s`;
  if (proxy) {
    // Only the connection to the proxy is this machine's to make: these name the proxy.
    const table: Record<string, string> = {
      UND_ERR_CONNECT_TIMEOUT: `could not connect to the proxy ${proxy.shown} within ${seconds(context.connectMs)}`,
      ECONNREFUSED: `the proxy ${proxy.shown} refused the connection`,
      ENOTFOUND: `cannot find the proxy ${proxy.shown}`,
      EAI_AGAIN: `cannot look up the proxy ${proxy.shown} right now`,
      EHOSTUNREACH: `the proxy ${proxy.shown} cannot be reached`,
      ENETUNREACH: `the proxy ${proxy.shown} cannot be reached`,
      UND_ERR_PRX_CONN: `the proxy ${proxy.shown} closed the connection before the tunnel to ${host} was open`,
    };
    const viaProxy = table[code];
    if (viaProxy !== undefined) return { kind: code === 'UND_ERR_CONNECT_TIMEOUT' ? 'timeout' : 'network', message: viaProxy, final: false };
  }
  const through = proxy ? ` through the proxy ${proxy.shown}` : '';
  const table: Record<string, [ApiErrorKind, string]> = {
    UND_ERR_CONNECT_TIMEOUT: ['timeout', `could not connect to ${host} within ${seconds(context.connectMs)}`],
    UND_ERR_HEADERS_TIMEOUT: ['timeout', `${host} did not answer within ${seconds(context.headersMs)}${through}`],
    UND_ERR_BODY_TIMEOUT: ['timeout', `${host} stopped sending its answer for ${seconds(context.bodyMs)}${through}`],
    ECONNREFUSED: ['network', `${host} refused the connection (is the server running?)`],
    ENOTFOUND: ['network', `cannot find the host ${url.hostname}`],
    EAI_AGAIN: ['network', `cannot look up the host ${url.hostname} right now`],
    EHOSTUNREACH: ['network', `${host} cannot be reached`],
    ENETUNREACH: ['network', `${host} cannot be reached`],
    ECONNRESET: ['network', `the connection to ${host} was dropped${through}`],
    EPIPE: ['network', `the connection to ${host} was dropped${through}`],
    UND_ERR_SOCKET: ['network', `the connection to ${host} was dropped${through}`],
    UND_ERR_CLOSED: ['network', `the connection to ${host} was closed${through}`],
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: ['network', `the connection to ${host} was cut off mid-answer${through}`],
    // Not the network's doing: this process may open no more files (sockets count).
    EMFILE: ['network', `cannot connect to ${host}: too many open files (raise the limit with ulimit -n)`],
    ENFILE: ['network', `cannot connect to ${host}: too many open files on the system`],
  };
  const [kind, worded] = table[code] ?? ['network', `the connection to ${host} failed${through} (${code || 'unknown error'})`];
  return { kind, message: worded, final: false };
}

/** Wrappers whose cause says more than they do. */
const WRAPPERS = new Set(['UND_ERR_SOCKET', 'UND_ERR_PRX_TLS']);

export function errorCode(error: unknown): string {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === 'string' && !WRAPPERS.has(code)) return code;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof code === 'string' ? code : '';
}
