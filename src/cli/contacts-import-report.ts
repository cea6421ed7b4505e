// What `contacts import` says at its end: created, present, refused (the first of each kind by
// name, the rest counted), the numbers taken that were not a card's first, who shares a number,
// why it stopped, and where the refused cards and rows are; as text or --json.
import type { TakenPhone } from '../contacts/import-candidate.js';
import { type ImportFileError, type ImportRecord, RECORD_LIMIT_WORDS } from '../contacts/import-sources.js';
import { sanitize } from '../text/sanitize.js';
import { truncate } from '../text/width.js';
import { writeJson } from './output.js';

/**
 * The most of a refusal's reason the report gives: a value quoted in it is the file's (a TEL run
 * on into a photo's 24 KB of base64), and a report line is a line.
 */
const REASON_COLUMNS = 200;

/** Refusals the report names one by one, of each kind; the rest are counted (and in --rejects). */
export const REPORT_DETAILS = 1000;

/** The cards and rows too large to keep that the report's last line names (the rest are counted). */
const UNKEPT_NAMED = 3;

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

export interface Report {
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

/** A report of nothing yet. */
export const emptyReport = (): Report => ({
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
});

/**
 * A card or row refused, counted in `report`: named with its reason cut to a line while there are
 * fewer than REPORT_DETAILS of its kind, and named again at the end when it is too large to keep
 * (none such goes to --rejects).
 */
export function noteRefusal(report: Report, record: ImportRecord, kind: 'invalid' | 'failed', field: string, reason: string): void {
  const count = kind === 'invalid' ? ++report.invalidCount : ++report.failedCount;
  if (count <= REPORT_DETAILS) report[kind].push({ where: record.where, field, reason: truncate(reason.slice(0, REASON_COLUMNS * 2), REASON_COLUMNS) });
  if (record.raw === undefined && ++report.unkeptCount <= UNKEPT_NAMED) report.unkept.push(record.where);
}

/** The report's note on contacts created though another holds their phone number. */
const sharingNote = (count: number, dryRun: boolean): string =>
  `note: ${count.toLocaleString('en-US')} of those ${dryRun ? 'to create' : 'created'} ${dryRun ? 'would share' : count === 1 ? 'shares' : 'share'} a phone number with another contact (tickbook contacts duplicates lists them)`;

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
export function printReport(report: Report, options: { dryRun: boolean; json: boolean; rejects: { path: string; written: boolean } | undefined }): void {
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
