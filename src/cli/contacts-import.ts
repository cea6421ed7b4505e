// `tickbook contacts import`: vCard and CSV files into the contact list. Every file is checked
// before anything is sent; the contacts there are already are read first, so that a contact
// imported before (the same username or phone number) is found, not made again; creates go a few
// at a time (the client waits out a 429); and the end is a report of what was created, what was
// there already and what was refused, the refused cards or rows written unchanged to a rejects
// file. Run again, the same import creates nothing it created before and finishes what it did not.
import { IMPORT_OPTIONS } from './options.js';
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import { ProgressLine } from './progress-line.js';
import type { CountryCode } from 'libphonenumber-js';
import { ApiError } from '../api/errors.js';
import type { TickbookClient } from '../api/client.js';
import { candidateOf, defaultCountry, usernameWithPhone } from '../contacts/import-candidate.js';
import { IMPORT_FORMATS, type ImportFormat } from '../contacts/formats.js';
import { ImportFileError, importFormat, type ImportRecord, importRecords } from '../contacts/import-sources.js';
import { sanitize } from '../text/sanitize.js';
import { formatOf, writeJson } from './output.js';
import { parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const IMPORT_HELP = `  tickbook contacts import FILE... [--format auto|vcf|csv] [--default-country CC] [--dry-run]
                            [--rejects FILE] [--json]`;


/** Creates in flight at once: quicker than one by one, gentle on a server's rate limit. */
const CONCURRENCY = 4;

interface Refusal {
  where: string;
  field: string;
  reason: string;
}

interface Report {
  created: number;
  present: number;
  invalid: Refusal[];
  failed: Refusal[];
  /** Why the import stopped before the end (the server went away), when it did. */
  stopped: string | undefined;
}

/** What the contact list holds already, by username (any case) and by phone number. */
class KnownContacts {
  readonly #byUsername = new Map<string, string>();
  readonly #phones = new Set<string>();
  add(username: string, phone: string): void {
    this.#byUsername.set(username.toLowerCase(), phone);
    this.#phones.add(phone);
  }
  remove(username: string, phone: string): void {
    this.#byUsername.delete(username.toLowerCase());
    this.#phones.delete(phone);
  }
  hasPhone(phone: string): boolean {
    return this.#phones.has(phone);
  }
  phoneOf(username: string): string | undefined {
    return this.#byUsername.get(username.toLowerCase());
  }
  get size(): number {
    return this.#byUsername.size;
  }
}

/** The rejects file: each refused card or row as written, rows under their file's header. */
class Rejects {
  readonly #out: WriteStream | undefined;
  #header: string | undefined;
  constructor(path: string | undefined) {
    this.#out = path === undefined ? undefined : createWriteStream(path, { flags: 'w', mode: 0o600 });
  }
  write(record: ImportRecord): void {
    if (!this.#out) return;
    if (record.format === 'csv' && record.header !== this.#header) this.#out.write(record.header);
    this.#header = record.format === 'csv' ? record.header : undefined;
    this.#out.write(record.raw);
  }
  async close(): Promise<void> {
    const out = this.#out;
    if (!out) return;
    await new Promise<void>((resolve, reject) => {
      out.on('error', reject);
      out.end(resolve);
    });
  }
}

const isGone = (error: unknown): boolean =>
  error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server' || error.kind === 'auth' || error.kind === 'rate_limited');

async function readKnown(client: TickbookClient, progress: ProgressLine): Promise<KnownContacts> {
  const known = new KnownContacts();
  for await (const contact of client.allContacts({ limit: 100 })) {
    known.add(contact.username, contact.phoneNumber);
    progress.show(`reading the contacts there are: ${known.size}`);
  }
  return known;
}

async function run(client: TickbookClient, files: readonly { path: string; format: ImportFormat; size: number }[], options: { country: CountryCode | undefined; dryRun: boolean; rejects: Rejects }): Promise<Report> {
  const progress = new ProgressLine();
  const report: Report = { created: 0, present: 0, invalid: [], failed: [], stopped: undefined };
  const known = await readKnown(client, progress);
  const inFlight = new Set<Promise<void>>();
  const refuse = (record: ImportRecord, list: Refusal[], field: string, reason: string) => {
    list.push({ where: record.where, field, reason });
    options.rejects.write(record);
  };
  // The bar goes by bytes read of all the files: how many cards or rows there are is not known
  // until they are read.
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  let doneBytes = 0;
  const say = (record: ImportRecord) => {
    const share = totalBytes > 0 ? Math.min(1, (doneBytes + record.offset) / totalBytes) : 0;
    progress.show(
      `${progress.bar(share, 1, 20)} ${Math.floor(share * 100)}% · ${report.created} ${options.dryRun ? 'to create' : 'created'}, ${report.present} present, ${report.invalid.length} invalid · ${record.where}`,
    );
  };

  const handle = (record: ImportRecord): Promise<void> | undefined => {
    if ('problem' in record.fields) {
      refuse(record, report.invalid, 'card', record.fields.problem);
      return undefined;
    }
    const candidate = candidateOf(record.fields, options.country);
    if ('problem' in candidate) {
      refuse(record, report.invalid, candidate.field, candidate.problem);
      return undefined;
    }
    const contact = { ...candidate.contact };
    // The same phone number, or the username with the same number: imported before.
    if (known.hasPhone(contact.phoneNumber) || known.phoneOf(contact.username) === contact.phoneNumber) {
      report.present++;
      return undefined;
    }
    // A username another person has (two John Smiths): the name's with the phone's last digits.
    if (known.phoneOf(contact.username) !== undefined && record.fields.username === undefined) {
      contact.username = usernameWithPhone(contact.username, contact.phoneNumber);
      if (known.phoneOf(contact.username) === contact.phoneNumber) {
        report.present++;
        return undefined;
      }
    }
    if (known.phoneOf(contact.username) !== undefined) {
      refuse(record, report.invalid, 'username', `username ${contact.username} belongs to another contact (with another phone number)`);
      return undefined;
    }
    // Taken at once, so that a later row with the same person, sent meanwhile, finds it.
    known.add(contact.username, contact.phoneNumber);
    if (options.dryRun) {
      report.created++;
      return undefined;
    }
    return client.createContact(contact).then(
      () => {
        report.created++;
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.kind === 'conflict') {
          report.present++;
          return;
        }
        known.remove(contact.username, contact.phoneNumber);
        if (error instanceof ApiError && error.kind === 'invalid') {
          refuse(record, report.invalid, error.field ?? 'contact', `the server refused it: ${error.message}`);
          return;
        }
        refuse(record, report.failed, 'contact', error instanceof ApiError ? error.describe() : (error as Error).message);
        if (isGone(error)) report.stopped ??= error instanceof ApiError ? error.describe() : (error as Error).message;
      },
    );
  };

  try {
    for (const file of files) {
      for await (const record of importRecords(file.path, file.format)) {
        if (report.stopped !== undefined) break;
        say(record);
        const sent = handle(record);
        if (!sent) continue;
        const tracked = sent.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
        if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      }
      if (report.stopped !== undefined) break;
      doneBytes += file.size;
    }
  } finally {
    await Promise.all(inFlight);
    progress.done();
  }
  return report;
}

function printReport(report: Report, options: { dryRun: boolean; json: boolean; rejectsPath: string | undefined }): void {
  if (options.json) {
    writeJson({
      status: report.stopped === undefined ? 'success' : 'stopped',
      dry_run: options.dryRun,
      created: report.created,
      present: report.present,
      invalid: report.invalid,
      failed: report.failed,
      stopped: report.stopped ?? null,
    });
    return;
  }
  const lines = [
    `${options.dryRun ? 'would create' : 'created'} ${report.created}, already present ${report.present}, invalid ${report.invalid.length}${report.failed.length > 0 ? `, failed ${report.failed.length}` : ''}`,
    ...[...report.invalid, ...report.failed].map((r) => `  ${r.where}: ${r.reason}`),
  ];
  if (report.stopped !== undefined) lines.push(`stopped: ${report.stopped}; run the same import again to finish it (nothing is created twice)`);
  if (options.rejectsPath !== undefined && report.invalid.length + report.failed.length > 0) lines.push(`the refused cards and rows are in ${options.rejectsPath}, as they were written`);
  process.stdout.write(lines.map((line) => `${sanitize(line)}\n`).join(''));
}

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
  // Every file is checked before anything is sent: a wrong one found half way would leave half done.
  const files: { path: string; format: ImportFormat; size: number }[] = [];
  try {
    for (const path of positionals) files.push({ path, format: await importFormat(path, asked), size: statSync(path).size });
  } catch (error) {
    if (error instanceof ImportFileError) {
      process.stderr.write(`tickbook: ${sanitize(error.message)}\n`);
      return 1;
    }
    throw error;
  }
  return withClient(values, async ({ client }) => {
    const rejects = new Rejects(values.rejects);
    let report: Report;
    try {
      report = await run(client, files, { country, dryRun: values['dry-run'] === true, rejects });
    } catch (error) {
      if (error instanceof ImportFileError) {
        process.stderr.write(`tickbook: ${sanitize(error.message)}\n`);
        return 1;
      }
      throw error;
    } finally {
      await rejects.close();
    }
    printReport(report, { dryRun: values['dry-run'] === true, json: format === 'json', rejectsPath: values.rejects });
    return report.invalid.length + report.failed.length > 0 || report.stopped !== undefined ? 1 : 0;
  });
}
