// `tickbook contacts import`: vCard and CSV files into the contact list. Every file is checked
// before anything is sent; the contacts there are already are read first, so that a contact
// imported before (the same contact: its id in tickbook's own export, or its username with the
// same phone number, and the same display name for a username made from the name: see
// same-contact.ts) is found, not made again, while another person who shares a phone number
// (a family, a switchboard) is made all the same and noted; creates go a few at a time, all held
// while a 429 asks (rate-pause.ts); and the end is a report of what was created, what was there
// already and what was refused, the refused cards or rows written unchanged to a rejects file,
// given also when Ctrl-C or SIGTERM stops it part way. Run again, the same import creates nothing
// it created before and finishes what it did not.
import { IMPORT_OPTIONS } from './options.js';
import { ProgressLine } from './progress-line.js';
import { LONGEST_WAIT_WORDS, RatePause } from './rate-pause.js';
import type { CountryCode } from 'libphonenumber-js';
import { ApiError } from '../api/errors.js';
import type { TickbookClient } from '../api/client.js';
import type { NewContact } from '../api/types.js';
import { candidateOf, defaultCountry, type TakenPhone } from '../contacts/import-candidate.js';
import { type HeldContact, placeOf } from '../contacts/same-contact.js';
import { IMPORT_FORMATS } from '../contacts/formats.js';
import { openOutputFile, type OutputFile, OutputFileError, outputFailure, put } from '../config/output-file.js';
import { checkImportFile, closeImportFile, type ImportFile, ImportFileError, type ImportRecord, importRecords, RECORD_LIMIT_WORDS } from '../contacts/import-sources.js';
import { sanitize } from '../text/sanitize.js';
import { duration } from '../text/time.js';
import { truncate } from '../text/width.js';
import { signalStatus } from '../tui/terminal/hang-up.js';
import { formatOf, writeJson } from './output.js';
import { parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const IMPORT_HELP = `  tickbook contacts import FILE... [--format auto|vcf|csv] [--default-country CC] [--dry-run]
                            [--rejects FILE] [--json]`;


/** Creates in flight at once: quicker than one by one, gentle on a server's rate limit. */
const CONCURRENCY = 4;

/**
 * The most of a refusal's reason the report gives: a value quoted in it is the file's (a TEL run
 * on into a photo's 24 KB of base64), and a report line is a line.
 */
const REASON_COLUMNS = 200;

/** Refusals the report names one by one, of each kind; the rest are counted (and in --rejects). */
export const REPORT_DETAILS = 1000;

interface Refusal {
  where: string;
  field: string;
  reason: string;
}

/** A card or row whose number taken is not the first it gives (Outlook's WORK before CELL). */
interface Taken extends TakenPhone {
  where: string;
}

/** How a number taken was chosen, in the text report. */
const TAKEN_WHY: Readonly<Record<TakenPhone['why'], string>> = { mobile: 'the mobile', preferred: 'the one it prefers', first: 'the first that is a phone number' };

interface Report {
  created: number;
  present: number;
  /** Of those created, how many share their phone number with another contact. */
  sharing: number;
  /** The first REPORT_DETAILS of the cards and rows whose number taken is not their first; the count is of all. */
  taken: Taken[];
  takenCount: number;
  /** The first REPORT_DETAILS of each kind; the counts are of all. */
  invalid: Refusal[];
  failed: Refusal[];
  invalidCount: number;
  failedCount: number;
  /** Why the import stopped before the end (the server went away), when it did. */
  stopped: string | undefined;
  /** The signal that stopped it (Ctrl-C's SIGINT, SIGTERM), when one did. */
  interrupted: NodeJS.Signals | undefined;
  /** Why a file was not read to its end (written to after it was checked), said after the report. */
  unread: ImportFileError | undefined;
  /** Where the first refused cards and rows too large to keep are (none goes to --rejects), and how many there are. */
  unkept: string[];
  unkeptCount: number;
}

/**
 * What the contact list holds already: each contact by username (any case) with its phone
 * number, the ids, and how many hold each phone number (for the report's note, never a reason
 * not to create).
 */
class KnownContacts {
  readonly #byUsername = new Map<string, HeldContact>();
  readonly #ids = new Set<string>();
  readonly #phones = new Map<string, number>();
  add(contact: { username: string; phoneNumber: string; displayName?: string | null | undefined; id?: string }): void {
    this.#byUsername.set(contact.username.toLowerCase(), { phoneNumber: contact.phoneNumber, displayName: contact.displayName });
    this.#phones.set(contact.phoneNumber, (this.#phones.get(contact.phoneNumber) ?? 0) + 1);
    if (contact.id !== undefined) this.#ids.add(contact.id);
  }
  remove(contact: { username: string; phoneNumber: string }): void {
    this.#byUsername.delete(contact.username.toLowerCase());
    const holders = this.#phones.get(contact.phoneNumber) ?? 0;
    if (holders > 1) this.#phones.set(contact.phoneNumber, holders - 1);
    else this.#phones.delete(contact.phoneNumber);
  }
  hasId(id: string): boolean {
    return this.#ids.has(id);
  }
  /** Whether another contact holds this phone number. */
  isShared(phone: string): boolean {
    return this.#phones.has(phone);
  }
  held(username: string): HeldContact | undefined {
    return this.#byUsername.get(username.toLowerCase());
  }
  get size(): number {
    return this.#byUsername.size;
  }
}

/**
 * The rejects file: each refused card or row as written, rows under their file's header. Written
 * as the import goes, never kept: while the file (or a FIFO's reader) is behind, `backlog` is what
 * the import waits on before it reads on. A rejects file that fails (a full disk, /dev/full, a
 * FIFO's reader gone) takes nothing more and says so in `failed`: the import stops reading there,
 * and the error comes after its report.
 */
class Rejects {
  readonly #file: OutputFile | undefined;
  readonly path: string | undefined;
  #header: string | undefined;
  #waiting: Promise<void> | undefined;
  #failed: unknown;
  private constructor(path: string | undefined, file: OutputFile | undefined) {
    this.path = path;
    this.#file = file;
  }
  /** Opened (by the output-file rule) before anything is read or sent; a refusal is a UsageError. */
  static async open(path: string | undefined): Promise<Rejects> {
    if (path === undefined) return new Rejects(undefined, undefined);
    if (path === '-') throw new UsageError('option --rejects: - would be standard output, where the report goes: give a file (or /dev/stdout to have both there)');
    try {
      return new Rejects(path, await openOutputFile(path));
    } catch (error) {
      if (error instanceof OutputFileError) throw new UsageError(`option --rejects: ${error.message}`);
      throw error;
    }
  }
  write(record: ImportRecord): void {
    const out = this.#file?.stream;
    if (!out || record.raw === undefined || this.#failed !== undefined) return;
    // A card's bytes as they are in its file; a row under its file's header.
    let text = record.raw;
    if (record.format === 'csv' && record.header !== this.#header) text = `${record.header}${String(text)}`;
    this.#header = record.format === 'csv' ? record.header : undefined;
    // Each write is taken in order at once; the last one's promise settles when all are taken.
    const written: Promise<void> = put(out, text).then(
      () => {
        if (this.#waiting === written) this.#waiting = undefined;
      },
      (error: unknown) => {
        this.#failed ??= this.#failure(error);
        if (this.#waiting === written) this.#waiting = undefined;
      },
    );
    this.#waiting = written;
  }
  /** Settled (never rejected) when the rejects file has taken what was written, or has failed; undefined when it has already. */
  get backlog(): Promise<void> | undefined {
    return this.#waiting;
  }
  /** Why the rejects file took no more, once it failed: the error to give after the report. */
  get failed(): unknown {
    return this.#failed;
  }
  async finish(): Promise<void> {
    if (!this.#file) return;
    await this.#waiting;
    if (this.#failed === undefined) {
      try {
        await this.#file.finish();
        return;
      } catch (error) {
        this.#failed = this.#failure(error);
      }
    }
    this.#file.abandon();
    throw this.#failed;
  }
  abandon(): void {
    this.#file?.abandon();
  }
  #failure(error: unknown): unknown {
    const failure = outputFailure(this.path!, error);
    return failure instanceof OutputFileError ? new Error(`option --rejects: ${failure.message}`) : failure;
  }
}

const isGone = (error: unknown): boolean =>
  error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server' || error.kind === 'auth' || error.kind === 'rate_limited');

/**
 * Ctrl-C or SIGTERM while the import runs. The first stops it where it is: nothing more is read,
 * nothing more sent, a create waiting out a 429 is not sent, and the creates under way are
 * answered; the report so far follows. A second cuts off those creates too (each is then failed,
 * "it may have been made": an import run again finds it). A third ends the process at once, for
 * what nothing else ends (a rejects FIFO whose reader reads nothing).
 */
class Interruption {
  /** Aborted by the first signal: reading on, and sending. */
  readonly reading = new AbortController();
  /** Aborted by the second: the creates under way. */
  readonly sending = new AbortController();
  signal: NodeJS.Signals | undefined;
  readonly #on = (signal: NodeJS.Signals) => {
    if (this.signal === undefined) {
      this.signal = signal;
      this.reading.abort(new Error(`interrupted by ${signalWords(signal)}`));
    } else if (!this.sending.signal.aborted) {
      this.sending.abort(new Error(`interrupted by ${signalWords(signal)} before the server answered: it may have been created (an import run again finds it)`));
    } else {
      process.stderr.write('\ntickbook: stopping now, without the report\n');
      process.exit(signalStatus(this.signal));
    }
  };
  constructor() {
    process.on('SIGINT', this.#on);
    process.on('SIGTERM', this.#on);
  }
  end(): void {
    process.off('SIGINT', this.#on);
    process.off('SIGTERM', this.#on);
  }
}

const signalWords = (signal: NodeJS.Signals): string => (signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal);

async function readKnown(client: TickbookClient, progress: ProgressLine, signal: AbortSignal): Promise<KnownContacts> {
  const known = new KnownContacts();
  for await (const contact of client.allContacts({ limit: 100 }, { signal })) {
    known.add(contact);
    progress.show(`reading the contacts there are: ${known.size}`);
  }
  return known;
}

async function run(
  client: TickbookClient,
  files: readonly ImportFile[],
  options: { country: CountryCode | undefined; dryRun: boolean; rejects: Rejects; interruption: Interruption },
): Promise<Report> {
  const progress = new ProgressLine();
  const report: Report = {
    created: 0,
    present: 0,
    sharing: 0,
    taken: [],
    takenCount: 0,
    invalid: [],
    failed: [],
    invalidCount: 0,
    failedCount: 0,
    stopped: undefined,
    interrupted: undefined,
    unread: undefined,
    unkept: [],
    unkeptCount: 0,
  };
  const { interruption } = options;
  const interrupted = (): boolean => {
    if (interruption.signal === undefined) return false;
    report.interrupted ??= interruption.signal;
    report.stopped ??= `interrupted by ${signalWords(interruption.signal)}`;
    return true;
  };
  // While a 429's pause holds, the progress line counts it down (see waiting, below).
  let countdown: NodeJS.Timeout | undefined;
  // Said at once: the report may wait for the answers to the creates under way.
  const onInterrupt = () => {
    clearInterval(countdown);
    progress.done();
    process.stderr.write(`tickbook: ${signalWords(interruption.signal!)}: stopping once the creates under way are answered (again to cut them off)\n`);
  };
  interruption.reading.signal.addEventListener('abort', onInterrupt, { once: true });
  let known: KnownContacts;
  try {
    known = await readKnown(client, progress, interruption.reading.signal);
  } catch (error) {
    progress.done();
    if (interrupted()) return report;
    throw error;
  }
  const pause = new RatePause();
  const inFlight = new Set<Promise<void>>();
  const refuse = (record: ImportRecord, kind: 'invalid' | 'failed', field: string, reason: string) => {
    const count = kind === 'invalid' ? ++report.invalidCount : ++report.failedCount;
    if (count <= REPORT_DETAILS) report[kind].push({ where: record.where, field, reason: truncate(reason.slice(0, REASON_COLUMNS * 2), REASON_COLUMNS) });
    if (record.raw === undefined && ++report.unkeptCount <= UNKEPT_NAMED) report.unkept.push(record.where);
    options.rejects.write(record);
  };
  // The bar goes by bytes read of all the files: how many cards or rows there are is not known
  // until they are read.
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  let doneBytes = 0;
  let share = 0;
  const counts = () => `${report.created} ${options.dryRun ? 'to create' : 'created'}, ${report.present} present, ${report.invalidCount} invalid`;
  const say = (record: ImportRecord) => {
    share = totalBytes > 0 ? Math.min(1, (doneBytes + record.offset) / totalBytes) : 0;
    progress.show(`${progress.bar(share, 1, 20)} ${Math.floor(share * 100)}% · ${counts()} · ${record.where}`);
  };
  // Off a terminal, a line says once that the import waits (each pause again would be a line a
  // second under a tight limit).
  let toldWaiting = false;
  const sayWaiting = () => {
    const left = pause.until - Date.now();
    if (left <= 0) {
      clearInterval(countdown);
      countdown = undefined;
      return;
    }
    progress.show(`${progress.bar(share, 1, 20)} ${Math.floor(share * 100)}% · ${counts()} · waiting ${duration(left / 1000)}: the server asks to slow down`, true);
  };
  const waiting = (waitMs: number) => {
    if (interruption.signal !== undefined) return;
    if (progress.shown) {
      sayWaiting();
      countdown ??= setInterval(sayWaiting, 1000);
    } else if (!toldWaiting) {
      toldWaiting = true;
      process.stderr.write(`tickbook: the server asks to slow down (HTTP 429): waiting as it asks (${duration(waitMs / 1000)} this time), then going on\n`);
    }
  };

  const handle = (record: ImportRecord): Promise<void> | undefined => {
    if ('problem' in record.fields) {
      refuse(record, 'invalid', record.format === 'vcf' ? 'card' : 'row', record.fields.problem);
      return undefined;
    }
    const candidate = candidateOf(record.fields, options.country);
    if ('problem' in candidate) {
      refuse(record, 'invalid', candidate.field, candidate.problem);
      return undefined;
    }
    if (candidate.taken && ++report.takenCount <= REPORT_DETAILS) report.taken.push({ where: record.where, ...candidate.taken });
    const contact = { ...candidate.contact };
    const present = () => {
      report.present++;
      return undefined;
    };
    // Its id in tickbook's own export: the same contact, whatever the file says of it now.
    if (record.fields.id !== undefined && known.hasId(record.fields.id)) return present();
    // The same contact by its username (and, for one made from its name, its display name), or
    // a username of its own. A phone number alone is no sign of the same contact (a family, a
    // switchboard share one): that one is made, and noted.
    const place = placeOf(contact, record.fields.username === undefined, (username) => known.held(username));
    if ('present' in place) return present();
    if ('problem' in place) {
      refuse(record, 'invalid', 'username', place.problem);
      return undefined;
    }
    contact.username = place.username;
    const sharing = known.isShared(contact.phoneNumber);
    // Taken at once, so that a later row with the same person, sent meanwhile, finds it.
    known.add(contact);
    const created = () => {
      report.created++;
      if (sharing) report.sharing++;
    };
    if (options.dryRun) {
      created();
      return undefined;
    }
    return send(contact).then(
      (outcome) => {
        if (outcome === 'created') created();
        else if (outcome === 'unsent') known.remove(contact);
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.kind === 'conflict') {
          report.present++;
          return;
        }
        known.remove(contact);
        if (error instanceof ApiError && error.kind === 'invalid') {
          refuse(record, 'invalid', error.field ?? 'contact', `the server refused it: ${error.message}`);
          return;
        }
        refuse(record, 'failed', 'contact', error instanceof ApiError ? error.describe() : (error as Error).message);
        if (isGone(error)) report.stopped ??= error instanceof ApiError ? error.describe() : (error as Error).message;
      },
    );
  };

  /**
   * One create, sent again after each 429 once the pause it began (or found) is over: 'created',
   * or 'unsent' when an interruption came while it waited; any other failure rejects.
   */
  const send = async (contact: NewContact): Promise<'created' | 'unsent'> => {
    for (;;) {
      let round: number;
      try {
        round = await pause.ready(interruption.reading.signal);
      } catch {
        return 'unsent';
      }
      try {
        await client.createContact(contact, { signal: interruption.sending.signal });
        pause.answered();
        return 'created';
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === 'rate_limited')) throw error;
        const slow = pause.asked(error, round);
        if ('tooLongMs' in slow) {
          report.stopped ??= `the server asks for no more requests for ${duration(slow.tooLongMs / 1000)} (HTTP 429, Retry-After), longer than the ${LONGEST_WAIT_WORDS} an import waits`;
          throw error;
        }
        if (slow.fresh) waiting(slow.waitMs);
      }
    }
  };

  try {
    for (const file of files) {
      try {
        for await (const record of importRecords(file)) {
          if (options.rejects.failed !== undefined) report.stopped ??= `the rejects file ${options.rejects.path} cannot be written`;
          if (interrupted() || report.stopped !== undefined) break;
          say(record);
          const sent = handle(record);
          if (sent) {
            const tracked = sent.finally(() => inFlight.delete(tracked));
            inFlight.add(tracked);
          }
          // A rejects file that is behind holds the reading, not memory. (Once interrupted, the
          // creates waiting out a 429 end at once and those under way when answered.)
          await options.rejects.backlog;
          if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
        }
      } catch (error) {
        // What was sent before stands: the report says so, then why the file was not read on.
        if (!(error instanceof ImportFileError)) throw error;
        report.unread = error;
        report.stopped ??= `${file.path} was not read to the end`;
      }
      if (interrupted() || report.stopped !== undefined) break;
      doneBytes += file.size;
    }
  } finally {
    await Promise.all(inFlight);
    clearInterval(countdown);
    interruption.reading.signal.removeEventListener('abort', onInterrupt);
    progress.done();
  }
  interrupted();
  return report;
}

/** The report's note on contacts created though another holds their phone number. */
const sharingNote = (count: number, dryRun: boolean): string =>
  `note: ${count.toLocaleString('en-US')} of those ${dryRun ? 'to create' : 'created'} ${dryRun ? 'would share' : count === 1 ? 'shares' : 'share'} a phone number with another contact (tickbook contacts duplicates lists them)`;

/** The cards and rows too large to keep that the report's last line names (the rest are counted). */
const UNKEPT_NAMED = 3;

/**
 * Where the refused cards and rows are: the rejects file, but for those too large to keep, named
 * (their own lines above say so too), which it does not hold.
 */
function rejectsNote(path: string, refused: number, { unkept, unkeptCount }: Pick<Report, 'unkept' | 'unkeptCount'>): string {
  if (unkeptCount === 0) return `the refused cards and rows are in ${path}, as they were written`;
  const names = `${unkept.join(', ')}${unkeptCount > unkept.length ? ` and ${(unkeptCount - unkept.length).toLocaleString('en-US')} more` : ''}`;
  const tooLarge = `larger than ${RECORD_LIMIT_WORDS}, too large to keep`;
  if (unkeptCount < refused) return `the refused cards and rows are in ${path}, as they were written, but for ${names} (${tooLarge})`;
  return `none of the refused is in ${path}: ${names} ${unkeptCount === 1 ? 'is' : 'are'} ${tooLarge}, so not written there`;
}

/** `rejects`: the rejects file's path, when one was asked for, and whether it was written. */
function printReport(report: Report, options: { dryRun: boolean; json: boolean; rejects: { path: string; written: boolean } | undefined }): void {
  if (options.json) {
    writeJson({
      status: report.interrupted !== undefined ? 'interrupted' : report.stopped === undefined ? 'success' : 'stopped',
      dry_run: options.dryRun,
      created: report.created,
      present: report.present,
      shared_phone: report.sharing,
      invalid: report.invalid,
      failed: report.failed,
      invalid_count: report.invalidCount,
      failed_count: report.failedCount,
      numbers_taken: report.taken.map(({ where, phone, why, of }) => ({ where, phone, taken: why, of })),
      numbers_taken_count: report.takenCount,
      stopped: report.stopped ?? null,
    });
    return;
  }
  const refused = report.invalidCount + report.failedCount;
  const unlisted = refused - report.invalid.length - report.failed.length;
  const lines = [
    `${options.dryRun ? 'would create' : 'created'} ${report.created}, already present ${report.present}, invalid ${report.invalidCount}${report.failedCount > 0 ? `, failed ${report.failedCount}` : ''}`,
    ...[...report.invalid, ...report.failed].map((r) => `  ${r.where}: ${r.reason}`),
  ];
  if (unlisted > 0) lines.push(`  … and ${unlisted.toLocaleString('en-US')} more refused, not listed here (the first ${REPORT_DETAILS.toLocaleString('en-US')} of each kind are)`);
  // Which number a card or row of several gave, when it is not the one it gives first.
  lines.push(...report.taken.map((t) => `  ${t.where}: ${t.of} numbers, took ${t.phone} (${TAKEN_WHY[t.why]})`));
  if (report.takenCount > report.taken.length) lines.push(`  … and ${(report.takenCount - report.taken.length).toLocaleString('en-US')} more numbers taken that are not the first written`);
  if (report.sharing > 0) lines.push(sharingNote(report.sharing, options.dryRun));
  if (report.stopped !== undefined) lines.push(`stopped: ${report.stopped}; run the same import again to finish it (nothing is created twice)`);
  if (options.rejects === undefined) {
    if (unlisted > 0) lines.push('give --rejects FILE to have every refused card and row written to FILE');
  } else if (options.rejects.written && refused > 0) lines.push(rejectsNote(options.rejects.path, refused, report));
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
        const report = await run(client, files, { country, dryRun, rejects, interruption });
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
