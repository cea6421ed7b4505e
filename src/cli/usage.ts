// Command-line parsing on node:util parseArgs, with one-line errors that name the option.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how tickbook was called: one line on stderr, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export function parseCommandLine<O extends OptionSpec>(args: readonly string[], options: O, allowPositionals: boolean) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    throw toUsageError(error);
  }
}

function toUsageError(error: unknown): UsageError {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = /'([^']+)'/.exec(message ?? '')?.[1] ?? '';
  const name = quoted.split(/[ ,]/)[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${name}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(`option ${name} ${/does not take/.test(message ?? '') ? 'takes no value' : 'needs a value'}`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${JSON.stringify(quoted)}`);
    default:
      return new UsageError(message ?? String(error));
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
