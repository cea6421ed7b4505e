// Output of the subcommands: aligned tables for people, JSON or NDJSON for programs.
import { sanitize } from '../text/sanitize.js';
import { localeIsUtf8 } from '../text/locale.js';
import { ELLIPSIS, fit, width } from '../text/width.js';
import { UsageError } from './usage.js';

export type Format = 'table' | 'json' | 'ndjson';

export function formatOf(values: { json?: boolean | undefined; ndjson?: boolean | undefined }, ndjsonAllowed = true): Format {
  if (values.json && values.ndjson) throw new UsageError('choose one of --json and --ndjson');
  if (values.ndjson && !ndjsonAllowed) throw new UsageError('option --ndjson is for lists; use --json');
  return values.json ? 'json' : values.ndjson ? 'ndjson' : 'table';
}

export interface Column {
  title: string;
  align?: 'left' | 'right';
  /** The widest this column may grow, in terminal columns. */
  max?: number;
}

/** What ends a cut cell: "…" where the locale is UTF-8, "..." where it cannot show one. */
export const cellEllipsis = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  localeIsUtf8(env) ? ELLIPSIS : '...';

/** An aligned table; every cell sanitised so server text cannot steer the terminal. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[], ellipsis = cellEllipsis()): string {
  const clean = rows.map((row) => row.map((cell) => sanitize(cell)));
  const widths = columns.map((column, i) =>
    Math.min(column.max ?? Number.POSITIVE_INFINITY, Math.max(width(column.title), ...clean.map((row) => width(row[i] ?? '')))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => fit(cell, widths[i]!, columns[i]!.align, ellipsis))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...clean.map(line)].join('\n') + '\n';
}

/** Key–value lines for one record. */
export function renderFields(fields: readonly (readonly [string, string])[]): string {
  // Not Math.max(...widths): a config list of 300,000 keys overflowed the stack with the spread.
  const keyWidth = fields.reduce((widest, [key]) => Math.max(widest, width(key)), 0);
  return fields.map(([key, value]) => `${fit(key, keyWidth)}  ${sanitize(value)}`).join('\n') + '\n';
}

export { contactJson, terminalSafeJson } from '../contacts/contact-json.js';
import { terminalSafeJson } from '../contacts/contact-json.js';

export const writeJson = (value: unknown): void => {
  process.stdout.write(`${terminalSafeJson(value, 2)}\n`);
};

export const writeNdjson = (values: Iterable<unknown>): void => {
  for (const value of values) process.stdout.write(`${terminalSafeJson(value)}\n`);
};
