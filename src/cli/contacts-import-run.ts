// The import itself, once every file is checked: the contacts there are read first, then each
// card or row is judged (a refusal, one there already, or one to create) and the creates sent a
// few at a time, all held while a 429 asks (rate-pause.ts), with a progress line; what it did is
// the report (contacts-import-report.ts), however it ends.
import { ProgressLine } from './progress-line.js';
import { LONGEST_WAIT_WORDS, RatePause } from './rate-pause.js';
import type { CountryCode } from 'libphonenumber-js';
import { ApiError } from '../api/errors.js';
import type { TickbookClient } from '../api/client.js';
import type { NewContact } from '../api/types.js';
import { candidateOf } from '../contacts/import-candidate.js';
import { KnownContacts } from '../contacts/known-contacts.js';
import { placeOf } from '../contacts/same-contact.js';
import { type ImportFile, ImportFileError, type ImportRecord, importRecords } from '../contacts/import-sources.js';
import { duration } from '../text/time.js';
import { type Interruption, signalWords } from './contacts-import-interruption.js';
import type { Rejects } from './contacts-import-rejects.js';
import { emptyReport, noteRefusal, type Report, REPORT_DETAILS } from './contacts-import-report.js';

/** Creates in flight at once: quicker than one by one, gentle on a server's rate limit. */
const CONCURRENCY = 4;

const isGone = (error: unknown): boolean =>
  error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server' || error.kind === 'auth' || error.kind === 'rate_limited');

async function readKnown(client: TickbookClient, progress: ProgressLine, signal: AbortSignal): Promise<KnownContacts> {
  const known = new KnownContacts();
  for await (const contact of client.allContacts({ limit: 100 }, { signal })) {
    known.add(contact);
    progress.show(`reading the contacts there are: ${known.size}`);
  }
  return known;
}

/** Imports the records of `files` (checked already) through `client`: what it did, as the report. */
export async function runImport(
  client: TickbookClient,
  files: readonly ImportFile[],
  options: { country: CountryCode | undefined; dryRun: boolean; rejects: Rejects; interruption: Interruption; screenReader?: boolean | undefined },
): Promise<Report> {
  const progress = new ProgressLine(options.screenReader);
  const report = emptyReport();
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
    noteRefusal(report, record, kind, field, reason);
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
