// The files an import reads: each checked first (there, readable, text, not empty), its format
// found (by its name, else by its first line), then read a card or a row at a time, streaming,
// each with its place in the file and its text as written (for the rejects file).
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fsReason } from '../config/fs-reason.js';
import { columnsOf, fieldsOfRow, hasPhoneColumn } from './csv-columns.js';
import type { ImportFields } from './import-candidate.js';
import type { ImportFormat } from './formats.js';
import { type CardFields, cardsOf, readCard } from './vcard.js';

export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/** One card or row: where it is ("contacts.csv row 4", "all.vcf card at line 12"), its text, its fields. */
export interface ImportRecord {
  where: string;
  format: ImportFormat;
  /** The card or row as written, line ends CRLF: what goes to the rejects file. */
  raw: string;
  /** The CSV header it was read under, as written (for a rejects file of rows). */
  header?: string | undefined;
  /** How far into its file it ends, in bytes (about: for a progress bar). */
  offset: number;
  fields: ImportFields | { problem: string };
}

/** How much of a file is looked at to tell text from binary, and to find its format. */
const SNIFF_BYTES = 64 * 1024;

/** The file's format: as asked, or from its name, or from its first line; or why it is not one. */
export async function importFormat(path: string, asked: ImportFormat | 'auto'): Promise<ImportFormat> {
  let head: Buffer;
  try {
    const file = await open(path, 'r');
    try {
      if ((await file.stat()).isDirectory()) throw new ImportFileError(`${path} is a directory, not a file`);
      const buffer = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`cannot read ${path}: ${fsReason(error)}`);
  }
  if (head.includes(0)) throw new ImportFileError(`${path} is not text (it holds binary data): expected a vCard (.vcf) or CSV file`);
  let text: string;
  try {
    // `stream`: a character cut at the end of what was read is not a fault of the file.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    throw new ImportFileError(`${path} is not UTF-8 text: save it as UTF-8 and import it again`);
  }
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/).find((line) => line.trim() !== '');
  if (firstLine === undefined) throw new ImportFileError(`${path} is empty: there is nothing to import`);
  const format = asked !== 'auto' ? asked : /^BEGIN:VCARD\s*$/i.test(firstLine.trim()) || /\.(vcf|vcard)$/i.test(path) ? 'vcf' : /\.(csv|tsv)$/i.test(path) || /[,;\t]/.test(firstLine) ? 'csv' : undefined;
  if (format === undefined) {
    throw new ImportFileError(`${path} is neither vCard nor CSV: its first line is not BEGIN:VCARD, nor a header of columns (give --format to say which it is)`);
  }
  // A vCard file is one with a card in it: a .vcf of notes is refused before anything is sent.
  if (format === 'vcf' && !/^BEGIN:VCARD\s*$/im.test(text)) throw new ImportFileError(`${path} holds no vCard (no BEGIN:VCARD line)`);
  if (format === 'csv') {
    let header: string[] = [];
    try {
      header = parseSync(firstLine, { delimiter: delimiterOf(firstLine), relax_quotes: true, relax_column_count: true })[0] ?? [];
    } catch {
      // Not one line of CSV: the phone column is not found either.
    }
    if (!hasPhoneColumn(header)) throw new ImportFileError(`${path}: its header names no phone column (phone_number, phone, mobile, …): ${JSON.stringify(firstLine.slice(0, 200))}`);
  }
  return format;
}

/** The delimiter of a header line: the one of comma, semicolon and tab it holds most of. */
function delimiterOf(header: string): string {
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length - 1] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

const fileName = (path: string): string => path.split(/[\\/]/).at(-1) ?? path;

/**
 * A card's fields for a contact. vCard requires FN, and an export writes the username there for a
 * contact without a display name: an FN that is the NICKNAME is no display name of its own.
 */
export const fieldsOfCard = (card: CardFields): ImportFields => ({
  name: card.name === card.nickname ? undefined : card.name,
  username: card.nickname,
  phones: card.phones,
  avatarUrl: card.photo,
});

async function* vcardRecords(path: string): AsyncGenerator<ImportRecord> {
  let offset = 0;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
  // Each line's bytes counted as it goes by, for the progress bar (a CRLF or LF end, about).
  const counted = (async function* () {
    for await (const line of lines) {
      offset += Buffer.byteLength(line) + 2;
      yield line;
    }
  })();
  let cards = 0;
  for await (const { raw, line } of cardsOf(counted)) {
    cards++;
    const card = readCard(raw.replace(/^\uFEFF/, ''));
    yield { where: `${fileName(path)} card at line ${line}`, format: 'vcf', raw, offset, fields: 'problem' in card ? card : fieldsOfCard(card) };
  }
  if (cards === 0) throw new ImportFileError(`${path} holds no vCard (no BEGIN:VCARD line)`);
}

async function* csvRecords(path: string): AsyncGenerator<ImportRecord> {
  // The header line first, for the delimiter: a European spreadsheet writes semicolons.
  const head = createInterface({ input: createReadStream(path, { encoding: 'utf8', end: SNIFF_BYTES }) });
  let headerLine = '';
  for await (const line of head) {
    if (line.trim() === '') continue;
    headerLine = line.replace(/^\uFEFF/, '');
    break;
  }
  head.close();
  const parser = createReadStream(path).pipe(
    parse({ bom: true, raw: true, info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, delimiter: delimiterOf(headerLine) }),
  );
  let columns: ReturnType<typeof columnsOf> | undefined;
  let header = '';
  try {
    for await (const { record, raw, info } of parser as AsyncIterable<{ record: string[]; raw: string; info: { lines: number; records: number; bytes: number } }>) {
      // csv-parse's raw row keeps the line end it stopped at (\r of CRLF, or \n): written CRLF once.
      const text = `${raw.replace(/\r?\n?$|\r$/, '')}\r\n`;
      if (!columns) {
        if (!hasPhoneColumn(record)) {
          throw new ImportFileError(`${path}: its header names no phone column (phone_number, phone, mobile, …): ${JSON.stringify(record.join(', ').slice(0, 200))}`);
        }
        columns = columnsOf(record);
        header = text;
        continue;
      }
      yield { where: `${fileName(path)} row ${info.records}`, format: 'csv', raw: text, header, offset: info.bytes, fields: fieldsOfRow(columns, record) };
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`${path} is not CSV tickbook can read: ${(error as Error).message}`);
  }
}

/** The cards or rows of one file, in order. */
export function importRecords(path: string, format: ImportFormat): AsyncGenerator<ImportRecord> {
  return format === 'vcf' ? vcardRecords(path) : csvRecords(path);
}
