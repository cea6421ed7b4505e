// What `tickbook config` may get, set and unset: every key of the file (and the alerts' three
// settings as alerts.bell, alerts.notify, alerts.command), a value typed on the command line made
// into what the file holds, and the checks a value must pass: the file reader's own rules
// (configFromObject), and the connection's for URLs and credentials.
import { credentialProblem, normaliseSymbols, parseBaseUrl, SYMBOL_PATTERN } from '../api/rules.js';
import { CONFIG_KEYS, configFromObject, type DashboardKey } from './config-file.js';
import { nearestKey } from './nearest-key.js';

const ALERT_SETTINGS = ['alerts.bell', 'alerts.notify', 'alerts.command'] as const;

/** Every name `config` takes. */
export const SETTING_NAMES: readonly string[] = [...CONFIG_KEYS, ...ALERT_SETTINGS];

/** Keys whose value is a secret: never shown by `config list`. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['token', 'api_key']);

type Kind = 'text' | 'url' | 'secret' | 'boolean' | 'number' | 'symbols' | 'json';

const KINDS: Record<string, Kind> = {
  base_url: 'url',
  market_data_url: 'url',
  token: 'secret',
  api_key: 'secret',
  insecure_http: 'boolean',
  watchlist: 'symbols',
  watchlists: 'json',
  active_watchlist: 'text',
  interval: 'number',
  glyphs: 'text',
  colors: 'text',
  theme: 'text',
  motion: 'boolean',
  hide_money: 'boolean',
  mouse: 'boolean',
  export_dir: 'text',
  screen_reader: 'boolean',
  read_prices_every: 'number',
  alerts: 'json',
  'alerts.bell': 'boolean',
  'alerts.notify': 'boolean',
  'alerts.command': 'text',
};

/** The settings that are true or false. */
export const BOOLEAN_SETTINGS: readonly string[] = SETTING_NAMES.filter((name) => KINDS[name] === 'boolean');

/** A name, a value or a file that `config` refuses: one line saying why. */
export class SettingError extends Error {
  override readonly name = 'SettingError';
}

/** The name itself, or a SettingError naming it with the closest valid one and the list. */
export function settingName(name: string): string {
  if (SETTING_NAMES.includes(name)) return name;
  const near = nearestKey(name, SETTING_NAMES);
  throw new SettingError(
    `unknown config key ${JSON.stringify(name)}${near === undefined ? '' : ` (did you mean ${near}?)`}; the keys are ${SETTING_NAMES.join(', ')}`,
  );
}

/** The top-level key a name lives under: alerts.bell is in alerts. */
export const fileKey = (name: string): string => (name.startsWith('alerts.') ? 'alerts' : name);

/** A value as typed (`true`, `15`, `AAPL,MSFT`, a JSON value) made into what the file holds. */
function typed(name: string, raw: string): unknown {
  switch (KINDS[name]) {
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      throw new SettingError(`${name} must be true or false, not ${JSON.stringify(raw)}`);
    case 'number':
      if (raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
      throw new SettingError(`${name} must be a number, not ${JSON.stringify(raw)}`);
    case 'symbols': {
      const list = raw.trimStart().startsWith('[') ? json(name, raw) : raw.split(',');
      if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) throw new SettingError(`${name} must be symbols, like AAPL,MSFT`);
      const symbols = normaliseSymbols(list);
      const bad = symbols.find((symbol) => !SYMBOL_PATTERN.test(symbol));
      if (bad !== undefined) throw new SettingError(`${name}: ${JSON.stringify(bad)} is not a stock symbol`);
      return symbols;
    }
    case 'json':
      return json(name, raw);
    default:
      return raw;
  }
}

function json(name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new SettingError(`${name} takes a JSON value here, and ${JSON.stringify(raw.slice(0, 60))} is not one`);
  }
}

/**
 * The file's object with `name` set to `raw`, checked: a SettingError says what is wrong in the
 * words the file's reader would use (a secret's value is never repeated).
 */
export function withSetting(file: Readonly<Record<string, unknown>>, name: string, raw: string): Record<string, unknown> {
  const value = typed(name, raw);
  const kind = KINDS[name];
  if (kind === 'url') {
    const url = parseBaseUrl(value as string, name);
    if ('problem' in url) throw new SettingError(url.problem);
  }
  if (kind === 'secret') {
    const problem = value === '' ? 'nothing in it' : credentialProblem(value as string);
    if (problem !== undefined) throw new SettingError(`${name} has ${problem}`);
  }
  let next: Record<string, unknown>;
  if (name.startsWith('alerts.')) {
    const alerts = file.alerts;
    const kept = typeof alerts === 'object' && alerts !== null && !Array.isArray(alerts) ? alerts : {};
    next = { ...file, alerts: { ...kept, [name.slice('alerts.'.length)]: value } };
  } else {
    next = { ...file, [name]: value };
  }
  const key = fileKey(name) as DashboardKey;
  let read;
  try {
    read = configFromObject('the config file', { [key]: next[key] });
  } catch (error) {
    throw new SettingError((error as Error).message.replace(/^the config file: /, ''));
  }
  const problem = read.malformed[key];
  if (problem !== undefined) throw new SettingError(problem);
  return next;
}

/** A setting's value in the file, or undefined when it is not set. */
export function settingValue(file: Readonly<Record<string, unknown>>, name: string): unknown {
  if (!name.startsWith('alerts.')) return file[name] ?? undefined;
  const alerts = file.alerts;
  if (typeof alerts !== 'object' || alerts === null || Array.isArray(alerts)) return undefined;
  return (alerts as Record<string, unknown>)[name.slice('alerts.'.length)];
}

/** A value as `config get` and `config list` print it: text as it is, anything else as JSON. */
export const shownValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What `config list` shows of a secret: that it is set and how long, never any of it. */
export const maskedValue = (value: unknown): string =>
  typeof value === 'string' ? `******** (set, ${[...value].length} characters)` : '******** (set)';
