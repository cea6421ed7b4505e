// `tickbook contacts export`: the whole contact list as vCard 4.0, CSV, JSON or NDJSON, streamed a
// page at a time (never the whole list in memory), to stdout or to a file that appears whole or
// not at all (written beside it, then renamed).
import { stringify } from 'csv-stringify';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { TickbookClient } from '../api/client.js';
import type { Contact } from '../api/types.js';
import { CSV_COLUMNS, csvRowOf } from '../contacts/csv-columns.js';
import { vcardOf } from '../contacts/vcard.js';
import { fsReason } from '../config/fs-reason.js';
import { CONNECTION_OPTIONS } from './connection-options.js';
import { contactJson, terminalSafeJson } from './output.js';
import { parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const EXPORT_HELP = `  tickbook contacts export [--format vcf|csv|json|ndjson] [--output FILE]`;

export type ExportFormat = 'vcf' | 'csv' | 'json' | 'ndjson';
const FORMATS: readonly ExportFormat[] = ['vcf', 'csv', 'json', 'ndjson'];

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

/** The format asked for, or the output file's extension's, or vCard. */
function formatFor(asked: string | undefined, output: string | undefined): ExportFormat {
  if (asked !== undefined) {
    if (!(FORMATS as readonly string[]).includes(asked)) throw new UsageError(`option --format must be vcf, csv, json or ndjson, not ${JSON.stringify(asked)}`);
    return asked as ExportFormat;
  }
  const extension = /\.([a-z]+)$/i.exec(output ?? '')?.[1]?.toLowerCase();
  if (extension === 'vcard') return 'vcf';
  return (FORMATS as readonly string[]).includes(extension ?? '') ? (extension as ExportFormat) : 'vcf';
}

/** Writes `text`, waiting while the reader is behind: a slow pipe holds the walk, not memory. */
async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** Every contact to `out` in `format`; the number written. */
export async function exportContacts(client: TickbookClient, format: ExportFormat, out: Writable): Promise<number> {
  let count = 0;
  const csv = format === 'csv' ? stringify({ header: true, columns: [...CSV_COLUMNS], escape_formulas: true, record_delimiter: 'windows' }) : undefined;
  // csv-stringify is a stream of its own: its text goes on to `out` as it is made.
  const piped = csv && (async () => {
    for await (const chunk of csv) await put(out, String(chunk));
  })();
  const write = async (contact: Contact) => {
    switch (format) {
      case 'vcf':
        return put(out, vcardOf(contact));
      case 'csv':
        if (!csv!.write(csvRowOf(contact))) await once(csv!, 'drain');
        return;
      case 'ndjson':
        return put(out, `${terminalSafeJson(contactJson(contact))}\n`);
      case 'json':
        return put(out, `${count === 0 ? '' : ',\n'}  ${terminalSafeJson(contactJson(contact))}`);
    }
  };
  // As `contacts list --all --json` gives it, a contact a line.
  if (format === 'json') await put(out, '{"has_more":false,"data":[\n');
  for await (const contact of client.allContacts({ limit: 100 })) {
    await write(contact);
    count++;
  }
  if (format === 'json') await put(out, `${count === 0 ? '' : '\n'}]}\n`);
  if (csv) {
    // An empty list still gets its header row (csv-stringify writes it at the end then).
    csv.end();
    await piped;
  }
  return count;
}

export async function exportCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, OPTIONS, true);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}: the file goes after --output`);
  if (values.json || values.ndjson) throw new UsageError('give the format as --format json or --format ndjson');
  const format = formatFor(values.format, values.output);
  const output = values.output;
  return withClient(values, async ({ client }) => {
    if (output === undefined) {
      const count = await exportContacts(client, format, process.stdout);
      process.stderr.write(`exported ${count} contact${count === 1 ? '' : 's'} (${format})\n`);
      return 0;
    }
    // Written beside the file and renamed over it: an export cut short leaves no half file.
    const temporary = join(dirname(output), `.${basename(output)}.${process.pid}.tmp`);
    const file = createWriteStream(temporary, { flags: 'wx', mode: 0o600 });
    try {
      await once(file, 'open');
    } catch (error) {
      throw new UsageError(`cannot write ${output}: ${fsReason(error)}`);
    }
    try {
      const count = await exportContacts(client, format, file);
      await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
      renameSync(temporary, output);
      process.stderr.write(`exported ${count} contact${count === 1 ? '' : 's'} to ${output} (${format})\n`);
      return 0;
    } catch (error) {
      file.destroy();
      rmSync(temporary, { force: true });
      if ((error as { code?: string }).code?.startsWith('E')) throw new Error(`cannot write ${output}: ${fsReason(error)}`);
      throw error;
    }
  });
}
