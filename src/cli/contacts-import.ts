// `tickbook contacts import`: vCard and CSV files into the contact list. Every file is checked
// before anything is sent; the contacts there are already are read first, so that a contact
// imported before (the same contact: its id in tickbook's own export, or its username with the
// same phone number, and the same display name for a username made from the name: see
// same-contact.ts) is found, not made again, while another person who shares a phone number
// (a family, a switchboard) is made all the same and noted; creates go a few at a time, all held
// while a 429 asks (rate-pause.ts); and the end is a report of what was created, what was there
// already and what was refused, the refused cards or rows written unchanged to a rejects file,
// given also when Ctrl-C or SIGTERM stops it part way. Run again, the same import creates nothing
// it created before and finishes what it did not. This file is the command (its options, the
// files checked, the rejects file opened, the exit status); the import itself is
// contacts-import-run.ts, its end contacts-import-report.ts.
import { IMPORT_OPTIONS } from './options.js';
import type { CountryCode } from 'libphonenumber-js';
import { defaultCountry } from '../contacts/import-candidate.js';
import { IMPORT_FORMATS } from '../contacts/formats.js';
import { checkImportFile, closeImportFile, type ImportFile, ImportFileError } from '../contacts/import-sources.js';
import { sanitize } from '../text/sanitize.js';
import { signalStatus } from '../tui/terminal/hang-up.js';
import { Interruption } from './contacts-import-interruption.js';
import { Rejects } from './contacts-import-rejects.js';
import { printReport } from './contacts-import-report.js';
import { runImport } from './contacts-import-run.js';
import { formatOf } from './output.js';
import { parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const IMPORT_HELP = `  tickbook contacts import FILE... [--format auto|vcf|csv] [--default-country CC] [--dry-run]
                            [--rejects FILE] [--json]`;

export async function importContacts(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, IMPORT_OPTIONS, true);
  const format = formatOf(values, false);
  if (positionals.length === 0) throw new UsageError('expected one or more files: tickbook contacts import contacts.vcf');
  const asked = (values.format ?? 'auto') as (typeof IMPORT_FORMATS)[number];
  if (!IMPORT_FORMATS.includes(asked)) throw new UsageError(`option --format must be auto, vcf or csv, not ${JSON.stringify(asked)}`);
  let country: CountryCode | undefined;
  if (values['default-country'] !== undefined) {
    const read = defaultCountry(values['default-country']);
    if (read.length !== 2) throw new UsageError(`option --default-country: ${read}`);
    country = read as CountryCode;
  }
  const dryRun = values['dry-run'] === true;
  // Opened first: a rejects file that will not do is a mistake in the command, said before a
  // large file is read through. Until it is finished its older self stays.
  const rejects = await Rejects.open(values.rejects);
  const files: ImportFile[] = [];
  try {
    // Every file is checked whole before anything is sent: a wrong one found half way would leave half done.
    try {
      for (const path of positionals) files.push(await checkImportFile(path, asked));
    } catch (error) {
      if (error instanceof ImportFileError) {
        process.stderr.write(`tickbook: ${sanitize(error.message)}\n`);
        return 1;
      }
      throw error;
    }
    return await withClient(values, async ({ client }) => {
      // From the first request on: what was done by then is reported, whatever ends it.
      const interruption = new Interruption();
      try {
        const report = await runImport(client, files, { country, dryRun, rejects, interruption, screenReader: values['screen-reader'] });
        // The import is done either way: its report is given, then why a file was not read to its
        // end, and why the rejects file is not written.
        const unwritten = await rejects.finish().then(
          () => undefined,
          (error: unknown) => error,
        );
        printReport(report, { dryRun, json: format === 'json', rejects: values.rejects === undefined ? undefined : { path: values.rejects, written: unwritten === undefined } });
        if (report.unread !== undefined) process.stderr.write(`tickbook: ${sanitize(report.unread.message)}\n`);
        if (unwritten !== undefined) {
          if (report.interrupted === undefined) throw unwritten;
          process.stderr.write(`tickbook: ${sanitize((unwritten as Error).message)}\n`);
        }
        // Ended by a signal: the status a shell gives a process it ended (130, 143), report or not.
        if (report.interrupted !== undefined) return signalStatus(report.interrupted);
        return report.invalidCount + report.failedCount > 0 || report.stopped !== undefined ? 1 : 0;
      } finally {
        interruption.end();
      }
    });
  } finally {
    rejects.abandon();
    for (const file of files) closeImportFile(file);
  }
}
