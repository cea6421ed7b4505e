// `tickbook contacts export`: the whole contact list as vCard 4.0, CSV, JSON or NDJSON, streamed a
// page at a time, to stdout or to --output by the output-file rule (config/output-file.ts).
import { EXPORT_OPTIONS } from './options.js';
import { OutputFileError } from '../config/output-file.js';
import { writeContacts, writeContactsFile } from '../contacts/export.js';
import { EXPORT_FORMATS, type ExportFormat } from '../contacts/formats.js';
import { parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const EXPORT_HELP = `  tickbook contacts export [--format vcf|csv|json|ndjson] [--output FILE]`;


/** The format asked for, or the output file's extension's, or vCard. */
function formatFor(asked: string | undefined, output: string | undefined): ExportFormat {
  if (asked !== undefined) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(asked)) throw new UsageError(`option --format must be vcf, csv, json or ndjson, not ${JSON.stringify(asked)}`);
    return asked as ExportFormat;
  }
  const extension = /\.([a-z]+)$/i.exec(output ?? '')?.[1]?.toLowerCase();
  if (extension === 'vcard') return 'vcf';
  return (EXPORT_FORMATS as readonly string[]).includes(extension ?? '') ? (extension as ExportFormat) : 'vcf';
}

export async function exportCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, EXPORT_OPTIONS, true);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}: the file goes after --output`);
  if (values.json || values.ndjson) throw new UsageError('give the format as --format json or --format ndjson');
  const format = formatFor(values.format, values.output);
  const output = values.output;
  return withClient(values, async ({ client }) => {
    const all = client.allContacts({ limit: 100 });
    if (output === undefined) {
      const count = await writeContacts(all, format, process.stdout);
      process.stderr.write(`exported ${count} contact${count === 1 ? '' : 's'} (${format})\n`);
      return 0;
    }
    try {
      const { count } = await writeContactsFile(all, format, output, undefined, { dash: true });
      process.stderr.write(`exported ${count} contact${count === 1 ? '' : 's'}${output === '-' ? '' : ` to ${output}`} (${format})\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof OutputFileError)) throw error;
      // Refused or not opened: nothing was read yet, a mistake in the command.
      if (error.opening) throw new UsageError(`option --output: ${error.message}`, { cause: error });
      throw new Error(`option --output: ${error.message}`, { cause: error });
    }
  });
}
