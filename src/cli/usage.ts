// Command-line parsing on node:util parseArgs, with one-line errors that name the option.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { normaliseSymbols, SYMBOL_PATTERN } from '../api/rules.js';
import { isNotText, shownArgument } from './argv.js';

/** A mistake in how tickbook was called: one line on stderr, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

const NEGATIVE_NUMBER = /^-[0-9.]/;

/**
 * `--limit -1` as `--limit=-1`. parseArgs refuses a value that starts with a dash (it may be a
 * forgotten value followed by the next option), but no option is spelled like a negative number,
 * so taking it as the value lets the option's own check name the range.
 */
function joinNegativeValues(args: readonly string[], options: OptionSpec): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const spec = arg.startsWith('--') && !arg.includes('=') ? options[arg.slice(2)] : undefined;
    if (spec?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

const NOT_TEXT_HINT = 'is not valid UTF-8 text (is the terminal or script set to UTF-8?)';

/** A word of the command line outside any option (a command, an action, a positional). */
export function refuseNonTextArgument(arg: string | undefined): void {
  if (arg !== undefined && isNotText(arg)) throw new UsageError(`argument ${shownArgument(arg)} ${NOT_TEXT_HINT}`);
}

/**
 * Refuses any argument holding bytes that are not UTF-8 (see argv.ts), naming the option it is
 * the value of. An option's value is not shown: it may be a token.
 */
function refuseNonText(args: readonly string[], options: OptionSpec): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      args.slice(i + 1).forEach(refuseNonTextArgument);
      return;
    }
    if (!arg.startsWith('-') || arg === '-') {
      refuseNonTextArgument(arg);
      continue;
    }
    const [name = '', ...value] = arg.replace(/^--?/, '').split('=');
    if (isNotText(name)) throw new UsageError(`option ${shownArgument(arg.split('=')[0]!)} ${NOT_TEXT_HINT}`);
    const dashes = arg.startsWith('--') ? '--' : '-';
    if (value.length > 0) {
      if (isNotText(value.join('='))) throw new UsageError(`option ${dashes}${name} ${NOT_TEXT_HINT}`);
      continue;
    }
    const spec = arg.startsWith('--') ? options[name] : Object.values(options).find((o) => o.short === name);
    if (spec?.type === 'string' && i + 1 < args.length) {
      if (isNotText(args[i + 1]!)) throw new UsageError(`option ${dashes}${name} ${NOT_TEXT_HINT}`);
      i++;
    }
  }
}

export function parseCommandLine<O extends OptionSpec>(args: readonly string[], options: O, allowPositionals: boolean) {
  refuseNonText(args, options);
  const negatives: string[] = [];
  let parsed;
  try {
    parsed = parseArgs({ args: negativeWordsHidden(joinNegativeValues(args, options), negatives), options, allowPositionals, strict: true, tokens: true });
  } catch (error) {
    throw toUsageError(error);
  }
  // parseArgs keeps the last of a repeated option; a second --base-url or --token is more likely
  // a mistake (an alias, a pasted line) than a wish to override the first, so it is refused.
  // Repeatable options say so (`multiple`), and a repeated switch means what it meant once.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (spec?.type !== 'string' || spec.multiple) continue;
    if (seen.has(token.name)) throw new UsageError(`option --${token.name} given twice`);
    seen.add(token.name);
  }
  return { values: parsed.values, positionals: parsed.positionals.map((word) => (word.startsWith(HIDDEN) ? negatives[Number(word.slice(1))]! : word)) };
}

/** Marks a negative number standing as a word while the parser reads the options. */
const HIDDEN = '\u0000';

/**
 * A negative number standing alone ("holdings add AAPL -1", "alerts add X move -5") is a word, not
 * an unknown option: it goes through the parser hidden, and comes back in its place.
 */
function negativeWordsHidden(args: readonly string[], negatives: string[]): string[] {
  const end = args.indexOf('--');
  return args.map((arg, i) => {
    if ((end >= 0 && i > end) || !NEGATIVE_NUMBER.test(arg)) return arg;
    negatives.push(arg);
    return `${HIDDEN}${negatives.length - 1}`;
  });
}

function toUsageError(error: unknown): UsageError {
  const { code, message = '' } = error as { code?: string; message?: string };
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const name = quoted.split(/[ ,]/)[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${name}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take/.test(message)) return new UsageError(`option ${name} takes no value`);
      if (/ambiguous/.test(message)) {
        return new UsageError(`option ${name} needs a value (a value starting with a dash is written ${name}=-VALUE)`);
      }
      return new UsageError(`option ${name} needs a value`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${JSON.stringify(quoted)}`);
    default:
      return new UsageError(message || String(error));
  }
}

/** An integer option within bounds, or a usage error naming the option. */
export function integerOption(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`option --${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

export function nonEmptyOption(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.trim() === '') throw new UsageError(`option --${name} must not be empty`);
  return raw;
}

/**
 * Stock symbols from the command line, several arguments or commas within one ("AAPL,MSFT"),
 * normalised as the API answers them. `what` leads the error naming one that cannot be a symbol.
 */
export function symbolList(what: string, raw: readonly string[]): string[] {
  const typed = raw.flatMap((arg) => arg.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  const bad = typed.find((s) => !SYMBOL_PATTERN.test(s.toUpperCase()));
  if (bad !== undefined) throw new UsageError(`${what}: ${JSON.stringify(bad)} is not a stock symbol`);
  return normaliseSymbols(typed);
}
