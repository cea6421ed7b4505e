// Shell completion's one source of truth: the shells' scripts (completion-scripts.ts) call
// `tickbook __complete WORD…` and show what it prints. Commands, actions and options come from
// the very option tables the commands parse with; values from what the user has (saved
// watchlists, alert ids, config keys) and the symbols catalogue, cached a day.
import { BOOLEAN_SETTINGS, SETTING_NAMES } from '../config/config-values.js';
import { EXPORT_FORMATS, IMPORT_FORMATS } from '../contacts/formats.js';
import { MOVE_FROM } from '../market/alert-grammar.js';
import { COLOR_VALUES, GLYPH_VALUES, THEME_VALUES } from '../config/display-settings.js';
import {
  ALERTS_OPTIONS,
  BAR_SPANS,
  CONFIG_OPTIONS,
  CONNECTION_OPTIONS,
  CREATE_OPTIONS,
  DASHBOARD_OPTIONS,
  DELETE_OPTIONS,
  EXPORT_OPTIONS,
  HISTORY_OPTIONS,
  HOLDINGS_OPTIONS,
  IMPORT_OPTIONS,
  LIST_OPTIONS,
  QUOTE_OPTIONS,
  SEARCH_OPTIONS,
  SERVE_OPTIONS,
  SYMBOLS_OPTIONS,
} from './options.js';
import type { OptionSpec } from './usage.js';

/** What a word may be: candidates to offer, or the shell's own file names. */
export type Values = readonly string[] | 'files' | 'symbols' | 'watchlists' | 'alerts' | 'settings' | 'none';

interface Command {
  options: OptionSpec;
  /** Each action's own options, when the command has actions. */
  actions?: Record<string, OptionSpec>;
  /** What the words after the command (and its action) are, by action ('' without one). */
  words?: Record<string, Values>;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

const COMMANDS: Record<string, Command> = {
  contacts: {
    options: CONNECTION_OPTIONS,
    actions: {
      list: LIST_OPTIONS,
      get: CONNECTION_OPTIONS,
      create: CREATE_OPTIONS,
      rename: CONNECTION_OPTIONS,
      delete: DELETE_OPTIONS,
      search: SEARCH_OPTIONS,
      export: EXPORT_OPTIONS,
      import: IMPORT_OPTIONS,
      duplicates: CONNECTION_OPTIONS,
    },
    words: { import: 'files' },
  },
  quote: { options: QUOTE_OPTIONS, words: { '': 'symbols' } },
  symbols: { options: SYMBOLS_OPTIONS, words: { '': 'none' } },
  history: { options: HISTORY_OPTIONS, words: { '': 'symbols' } },
  alerts: {
    options: ALERTS_OPTIONS,
    actions: { add: ALERTS_OPTIONS, list: ALERTS_OPTIONS, log: ALERTS_OPTIONS, rm: ALERTS_OPTIONS, pause: ALERTS_OPTIONS, resume: ALERTS_OPTIONS, watch: ALERTS_OPTIONS },
    words: { add: 'symbols', rm: 'alerts', pause: 'alerts', resume: 'alerts' },
  },
  holdings: {
    options: HOLDINGS_OPTIONS,
    actions: { list: HOLDINGS_OPTIONS, add: HOLDINGS_OPTIONS, rm: HOLDINGS_OPTIONS },
    words: { add: 'symbols', rm: 'symbols' },
  },
  config: {
    options: CONFIG_OPTIONS,
    actions: { path: CONFIG_OPTIONS, get: CONFIG_OPTIONS, set: CONFIG_OPTIONS, unset: CONFIG_OPTIONS, list: CONFIG_OPTIONS },
    words: { get: 'settings', set: 'settings', unset: 'settings' },
  },
  serve: { options: SERVE_OPTIONS },
  completion: { options: {}, words: { '': SHELLS } },
  doctor: { options: CONNECTION_OPTIONS, words: { '': 'none' } },
};

/** Option values worth offering; every other value is the user's to type. */
const OPTION_VALUES: Record<string, Values> = {
  format: 'none',
  watchlist: 'watchlists',
  output: 'files',
  rejects: 'files',
  'token-file': 'files',
  'api-key-file': 'files',
  'debug-log': 'files',
  db: 'files',
  bars: BAR_SPANS,
  from: MOVE_FROM,
  theme: THEME_VALUES,
};

/** Export and import take different formats under one option name. */
const FORMATS: Record<string, readonly string[]> = { export: EXPORT_FORMATS, import: IMPORT_FORMATS };

/** A value of `config set KEY …` worth offering. */
const SETTING_VALUES: Record<string, readonly string[]> = {
  glyphs: GLYPH_VALUES,
  colors: COLOR_VALUES,
  theme: THEME_VALUES,
  ...Object.fromEntries(BOOLEAN_SETTINGS.map((name) => [name, ['true', 'false']])),
};

/** The values a kind names, looked up only when a word asks for them. */
export interface Sources {
  symbols(): readonly string[];
  watchlists(): readonly string[];
  alerts(): Promise<readonly string[]>;
}

/** What completes `current`, given the words before it: candidates, or 'files' for the shell's own. */
export async function complete(before: readonly string[], current: string, sources: Sources): Promise<readonly string[] | 'files'> {
  const [name, ...rest] = before;
  const command = name === undefined ? undefined : COMMANDS[name];
  let options: OptionSpec = name === undefined ? DASHBOARD_OPTIONS : (command?.options ?? DASHBOARD_OPTIONS);
  let words = rest;
  let action = '';
  if (name === undefined && !current.startsWith('-')) return matching(Object.keys(COMMANDS), current);
  if (command === undefined && name !== undefined && !name.startsWith('-')) return [];
  if (command?.actions) {
    const first = wordsOnly(rest, options).at(0);
    if (first === undefined) {
      if (!current.startsWith('-')) return matching(Object.keys(command.actions), current);
    } else {
      action = rest[first]!;
      options = command.actions[action] ?? options;
      words = rest.slice(first + 1);
    }
  }
  // The value of the option before: --format csv, --watchlist Tech.
  const previous = (name === undefined || command === undefined ? before : words).at(-1);
  if (previous?.startsWith('--') && !previous.includes('=')) {
    const option = options[previous.slice(2)];
    if (option?.type === 'string') {
      const kind = previous === '--format' ? (FORMATS[action] ?? 'none') : (OPTION_VALUES[previous.slice(2)] ?? 'none');
      return values(kind, current, sources);
    }
  }
  if (current.startsWith('-')) {
    const given = new Set(before.filter((word) => word.startsWith('--')).map((word) => word.slice(2).split('=')[0]));
    return matching(
      Object.entries(options)
        .filter(([option, spec]) => spec.multiple || !given.has(option))
        .map(([option]) => `--${option}`),
      current,
    );
  }
  const positionals = wordsOnly(words, options).map((i) => words[i]!);
  if (name === 'config' && action === 'set' && positionals.length === 1) return matching(SETTING_VALUES[positionals[0]!] ?? [], current);
  // One KEY, one alert id, one symbol for holdings; as many symbols or files as wanted elsewhere.
  const single = name === 'config' || name === 'completion' || name === 'holdings' || ['rm', 'pause', 'resume', 'add'].includes(action);
  if (single && positionals.length > 0) return [];
  return values(command?.words?.[action] ?? 'none', current, sources);
}

async function values(kind: Values, current: string, sources: Sources): Promise<readonly string[] | 'files'> {
  switch (kind) {
    case 'files':
      return 'files';
    case 'none':
      return [];
    case 'symbols':
      return matching(sources.symbols(), current.toUpperCase());
    case 'watchlists':
      return matching(sources.watchlists(), current);
    case 'alerts':
      return matching(await sources.alerts(), current);
    case 'settings':
      return matching(SETTING_NAMES, current);
    default:
      return matching(kind, current);
  }
}

/** Where the words that are not options, nor an option's value (`--base-url URL`), stand. */
function wordsOnly(words: readonly string[], options: OptionSpec): number[] {
  const at: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-')) at.push(i);
    else if (word.startsWith('--') && !word.includes('=') && options[word.slice(2)]?.type === 'string') i++;
  }
  return at;
}

const matching = (candidates: readonly string[], current: string): string[] => candidates.filter((c) => c.startsWith(current));
