// Every command's options, as node:util parseArgs takes them: the commands parse with these, and
// shell completion (complete.ts) offers them, so the two never disagree. Kept apart from the
// commands so that completion loads nothing else.

/** `history --bars`: minute or day bars. */
export const BAR_SPANS = ['1m', '1d'] as const;

export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  'market-data-url': { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  'api-key': { type: 'string' },
  'api-key-file': { type: 'string' },
  'insecure-http': { type: 'boolean' },
  'debug-log': { type: 'string' },
  json: { type: 'boolean' },
  ndjson: { type: 'boolean' },
  'screen-reader': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const ALERTS_OPTIONS = {
  ...CONNECTION_OPTIONS,
  once: { type: 'boolean' },
  from: { type: 'string' },
  interval: { type: 'string' },
} as const;

export const CONFIG_OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export const EXPORT_OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

export const IMPORT_OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string' },
  'default-country': { type: 'string' },
  'dry-run': { type: 'boolean' },
  rejects: { type: 'string' },
} as const;

export const SEARCH_OPTIONS = { ...CONNECTION_OPTIONS, limit: { type: 'string' } } as const;

export const DASHBOARD_OPTIONS = {
  'base-url': CONNECTION_OPTIONS['base-url'],
  'market-data-url': CONNECTION_OPTIONS['market-data-url'],
  token: CONNECTION_OPTIONS.token,
  'token-file': CONNECTION_OPTIONS['token-file'],
  'api-key': CONNECTION_OPTIONS['api-key'],
  'api-key-file': CONNECTION_OPTIONS['api-key-file'],
  'insecure-http': CONNECTION_OPTIONS['insecure-http'],
  'debug-log': CONNECTION_OPTIONS['debug-log'],
  'screen-reader': CONNECTION_OPTIONS['screen-reader'],
  help: CONNECTION_OPTIONS.help,
  watchlist: { type: 'string', multiple: true },
  interval: { type: 'string' },
  theme: { type: 'string' },
} as const;

export const HISTORY_OPTIONS = {
  'base-url': { type: 'string' },
  'market-data-url': { type: 'string' },
  since: { type: 'string' },
  bars: { type: 'string' },
  json: { type: 'boolean' },
  ndjson: { type: 'boolean' },
  csv: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const HOLDINGS_OPTIONS = {
  ...CONNECTION_OPTIONS,
  cost: { type: 'string' },
  date: { type: 'string' },
  lot: { type: 'string' },
} as const;

export const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  db: { type: 'string' },
  seed: { type: 'string' },
  'reset-market': { type: 'boolean' },
  'no-demo-data': { type: 'boolean' },
  'demo-contacts': { type: 'string' },
  'rate-limit': { type: 'string' },
  token: { type: 'string', multiple: true },
  'api-key': { type: 'string', multiple: true },
  'restricted-api-key': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export const LIST_OPTIONS = {
  ...CONNECTION_OPTIONS,
  limit: { type: 'string' },
  active: { type: 'boolean' },
  inactive: { type: 'boolean' },
  all: { type: 'boolean' },
  after: { type: 'string' },
  before: { type: 'string' },
} as const;

export const CREATE_OPTIONS = {
  ...CONNECTION_OPTIONS,
  username: { type: 'string' },
  phone: { type: 'string' },
  'display-name': { type: 'string' },
  'avatar-url': { type: 'string' },
} as const;

export const DELETE_OPTIONS = { ...CONNECTION_OPTIONS, yes: { type: 'boolean', short: 'y' } } as const;

export const QUOTE_OPTIONS = { ...CONNECTION_OPTIONS, watch: { type: 'boolean' }, interval: { type: 'string' } } as const;

export const SYMBOLS_OPTIONS = { ...CONNECTION_OPTIONS, search: { type: 'string' } } as const;
