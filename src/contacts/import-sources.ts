// The files an import reads: each checked first, whole (there, a regular file, UTF-8 text with
// no NUL byte anywhere but where a vCard's property declares another charset, or UTF-16 after its
// byte-order mark, not empty, a CSV quote closed), its format found (by its name, else by its first line), then read a card or a row
// at a time, streaming, each with its place in the file and its text as written (for the rejects
// file). A card or row is kept up to RECORD_LIMIT bytes: a
// larger one is refused alone and the reading goes on, so memory does not grow with the file.
// What is imported is what was checked: the file is read again through the descriptor it was
// checked through (a file saved again since, by a rename over it, is not the one read), and a
// file written to since (its size or its time of change not what they were, a bad byte met) stops
// the import where it is found (FileChangedError).
import { parse as parseSync } from 'csv-parse/sync';
import { type BigIntStats, closeSync, fstatSync, read } from 'node:fs';
import { promisify } from 'node:util';
import { fsReason } from '../config/fs-reason.js';
import { NotRegularFileError, openRegularFile } from '../config/regular-file.js';
import { hexByte, TextBytesCheck } from '../text/text-bytes.js';
import { type Utf16Fault, Utf16Text, utf16Of } from '../text/utf16-text.js';
import { columnsOf, fieldsOfRow, hasPhoneColumn } from './csv-columns.js';
import { cellsOfEach, type CsvRecord, CsvRecordSplitter } from './csv-records.js';
import type { ImportFields } from './import-candidate.js';
import type { ImportFormat } from './formats.js';
import { type Line, LineSplitter, type LongLine } from './text-lines.js';
import type { CardFields } from './vcard-fields.js';
import { readCard } from './vcard-read.js';
import { CardSplitter, crCardLines, type RawCard } from './vcard-splitter.js';
import { type ByteFault, CardBytesCheck } from './vcard-lines.js';

export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/** A file written to after it was checked, found while it is imported. */
export class FileChangedError extends ImportFileError {
  constructor(readonly path: string) {
    super(`${path} changed after it was checked (it was written to meanwhile): import it again once it is saved`);
  }
}

/** One card or row: where it is ("contacts.csv row 4", "all.vcf card at line 12"), its text, its fields. */
export interface ImportRecord {
  where: string;
  format: ImportFormat;
  /**
   * What goes to the rejects file (none when too large to keep): a card's bytes exactly as in its
   * file, a row's text as written with a CRLF line end.
   */
  raw: Buffer | string | undefined;
  /** The CSV header it was read under, as written (for a rejects file of rows). */
  header?: string | undefined;
  /** How far into its file it ends, in bytes (about: for a progress bar). */
  offset: number;
  fields: ImportFields | { problem: string };
}

/** A BEGIN:VCARD line as the card splitter takes one: spaces around it and its colon, any case. */
const VCARD_BEGIN = /^[ \t]*BEGIN[ \t]*:[ \t]*VCARD[ \t]*$/i;

/** How much of a file is looked at to find its format. */
const SNIFF_BYTES = 64 * 1024;

/** The largest card or CSV row an import takes, in bytes: a larger one is refused alone. */
export const RECORD_LIMIT = 1024 * 1024;
export const RECORD_LIMIT_WORDS = '1 MiB';

/**
 * How much of a file is read at a time. The cards or rows of a chunk are made at once: measured
 * over 100,000 rows, 64 KiB chunks peaked at 130 MB RSS, 256 KiB at 196 MB, for the same time.
 */
const CHUNK_BYTES = 64 * 1024;

const readAt = promisify(read);

/** The bytes of the open file `fd` from `from` to its end, a chunk at a time (each a buffer of its own). */
async function* chunksOf(fd: number, from = 0): AsyncGenerator<Buffer> {
  for (let position = from; ; ) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await readAt(fd, buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** A file's encoding: UTF-8, or UTF-16 when it begins with UTF-16's byte-order mark. */
export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The text of the open file `fd` as UTF-8 bytes, a chunk at a time (UTF-16 transcoded; a fault in it ends the text there). */
async function* textChunksOf(fd: number, encoding: FileEncoding): AsyncGenerator<Buffer> {
  const utf16 = encoding === 'utf-8' ? undefined : new Utf16Text(encoding);
  for await (const chunk of chunksOf(fd)) {
    const text = utf16 ? utf16.push(chunk) : chunk;
    if ('line' in text) return;
    yield text;
  }
}

/** The line (from 1) of the byte at `offset` in the UTF-8 text of the open file `fd`. */
async function lineAt(fd: number, encoding: FileEncoding, offset: number): Promise<number> {
  let line = 1;
  let base = 0;
  for await (const chunk of textChunksOf(fd, encoding)) {
    const upTo = Math.min(chunk.length, offset - base);
    for (let at = chunk.indexOf(0x0a); at >= 0 && at < upTo; at = chunk.indexOf(0x0a, at + 1)) line++;
    base += chunk.length;
    if (base >= offset) break;
  }
  return line;
}

/** A file checked and ready to import, open: closeImportFile when done with it. */
export interface ImportFile {
  path: string;
  format: ImportFormat;
  /** A CSV file's delimiter, from its header line. */
  delimiter: string;
  size: number;
  encoding: FileEncoding;
  /** The bytes of its text as UTF-8 (its size, but for a UTF-16 file): what a record's place counts. */
  textSize: number;
  /** The descriptor it was checked through, read again to import it. */
  fd: number;
  /** Its time of change when it was checked (ns). */
  mtimeNs: bigint;
}

export function closeImportFile(file: ImportFile): void {
  closeSync(file.fd);
}

/** `fd`'s state, to compare with the one it was checked in. */
const stateOf = (fd: number): BigIntStats => fstatSync(fd, { bigint: true });

/** Opens `path` for reading as a regular file, or says why not in an ImportFileError. */
function openImportFile(path: string): number {
  try {
    return openRegularFile(path);
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      if (error.kind === 'a directory') throw new ImportFileError(`${path} is a directory, not a file`);
      // Read twice, it must hold still: a pipe gives its bytes once.
      throw new ImportFileError(`${path} is ${error.kind}, not a regular file: an import reads its files twice (checked, then imported), so it cannot read a pipe or a device; save it to a file first`);
    }
    throw new ImportFileError(`cannot read ${path}: ${fsReason(error)}`);
  }
}

/** Why a file with `fault` at its `line` is not one to import. */
function faultMessage(path: string, fault: ByteFault, line: number): string {
  const byte = hexByte(fault.byte);
  return fault.kind === 'nul'
    ? `${path} line ${line} is not text (it holds a NUL byte, binary data): expected a vCard (.vcf) or CSV file`
    : `${path} line ${line} is not UTF-8 text (byte ${byte}): save it as UTF-8 and import it again`;
}

/** Why a UTF-16 file with `fault` is not one to import. */
const utf16Message = (path: string, fault: Utf16Fault): string =>
  fault.kind === 'nul'
    ? `${path} line ${fault.line} is not text (it holds a NUL character, binary data): expected a vCard (.vcf) or CSV file`
    : `${path} line ${fault.line} is not UTF-16 text, though it begins with UTF-16's byte-order mark: save it again (as UTF-8 or UTF-16) and import it again`;

/** A failure to read `path` (EIO, part way), as an ImportFileError; one already is passed on. */
const readFailure = (path: string, error: unknown): unknown =>
  error instanceof ImportFileError || !(error as { code?: string }).code?.startsWith('E') ? error : new ImportFileError(`cannot read ${path}: ${fsReason(error)}`);

/**
 * `path` checked whole, before anything is sent: its format (as asked, or from its name, or from
 * its first line), or an ImportFileError saying why it cannot be imported. Read a chunk at a time:
 * a file of any size is checked in the same memory.
 */
export async function checkImportFile(path: string, asked: ImportFormat | 'auto'): Promise<ImportFile> {
  const fd = openImportFile(path);
  try {
    // The state before a byte is read: a change made while it is checked shows too.
    const before = stateOf(fd);
    const checked = await checkOpenFile(fd, path, asked);
    if (checked.size !== Number(before.size) || stateOf(fd).mtimeNs !== before.mtimeNs) throw new FileChangedError(path);
    return { ...checked, fd, mtimeNs: before.mtimeNs };
  } catch (error) {
    closeSync(fd);
    throw readFailure(path, error);
  }
}

/**
 * The lines of a vCard file checked as they pass by the bytes rule of vCards (CardBytesCheck):
 * the first fault, with the line it is on, is handed to `fault`.
 */
class CardFileLines {
  readonly #splitter = new LineSplitter(RECORD_LIMIT);
  readonly #check = new CardBytesCheck();
  #line = 0;
  constructor(private readonly fault: (fault: ByteFault, line: number) => never) {}
  get offset(): number {
    return this.#splitter.offset;
  }
  push(chunk: Buffer): (Line | LongLine)[] {
    return this.#checked(this.#splitter.push(chunk).flatMap(crCardLines));
  }
  end(): (Line | LongLine)[] {
    return this.#checked(this.#splitter.end().flatMap(crCardLines));
  }
  #checked(lines: (Line | LongLine)[]): (Line | LongLine)[] {
    for (const line of lines) {
      if (!('raw' in line && line.sameLine)) this.#line++;
      const fault = this.#check.line(line);
      if (fault) this.fault(fault, this.#line);
    }
    return lines;
  }
}

async function checkOpenFile(fd: number, path: string, asked: ImportFormat | 'auto'): Promise<Omit<ImportFile, 'fd' | 'mtimeNs'>> {
  const head = Buffer.allocUnsafe(SNIFF_BYTES);
  const { bytesRead } = await readAt(fd, head, 0, SNIFF_BYTES, 0);
  // A byte-order mark of UTF-16 (Excel's "Unicode text"): the file is read as the UTF-8 it is
  // transcoded into, and checked as UTF-16 on the way.
  const encoding = utf16Of(head.subarray(0, bytesRead)) ?? 'utf-8';
  const utf16 = encoding === 'utf-8' ? undefined : new Utf16Text(encoding);
  const decoded = (chunk: Buffer): Buffer => {
    const text = utf16 ? utf16.push(chunk) : chunk;
    if ('line' in text) throw new ImportFileError(utf16Message(path, text));
    return text;
  };
  // A NUL near the start: a photo, an archive, a database, rather than text in another encoding.
  if (!utf16 && head.subarray(0, bytesRead).includes(0)) throw new ImportFileError(`${path} is not text (it holds binary data): expected a vCard (.vcf) or CSV file`);
  const first = decoded(head.subarray(0, bytesRead));
  const text = new TextBytesCheck();
  const refuse = async (fault: ByteFault & { offset: number }): Promise<never> => {
    throw new ImportFileError(faultMessage(path, fault, await lineAt(fd, encoding, fault.offset)));
  };
  const headFault = text.push(first);
  // `stream`: a character cut at the end of what was read is the next chunk's.
  const headText = new TextDecoder('utf-8').decode(first, { stream: true });
  const firstLine = headText.replace(/^\uFEFF/, '').split(/\r?\n|\r/).find((line) => line.trim() !== '');
  const format =
    firstLine === undefined ? undefined
    : asked !== 'auto' ? asked
    : VCARD_BEGIN.test(firstLine) || /\.(vcf|vcard)$/i.test(path) ? 'vcf'
    : /\.(csv|tsv)$/i.test(path) || /[,;\t]/.test(firstLine) ? 'csv'
    : undefined;
  // A vCard's bytes are checked a line at a time below: a property may declare its charset.
  if (headFault && format !== 'vcf') await refuse(headFault);
  if (firstLine === undefined && bytesRead < SNIFF_BYTES) throw new ImportFileError(`${path} is empty: there is nothing to import`);
  if (firstLine === undefined) throw new ImportFileError(`${path} is neither vCard nor CSV: its first ${SNIFF_BYTES / 1024} KiB are blank`);
  if (format === undefined) {
    throw new ImportFileError(`${path} is neither vCard nor CSV: its first line is not BEGIN:VCARD, nor a header of columns (give --format to say which it is)`);
  }
  // A vCard file is one with a card in it: a .vcf of notes is refused before anything is sent.
  if (format === 'vcf' && !new RegExp(VCARD_BEGIN.source, 'im').test(headText)) throw new ImportFileError(`${path} holds no vCard (no BEGIN:VCARD line)`);
  const delimiter = delimiterOf(firstLine!);
  if (format === 'csv') {
    let header: string[] = [];
    try {
      header = parseSync(firstLine, { delimiter, relax_quotes: true, relax_column_count: true })[0] ?? [];
    } catch {
      // Not one line of CSV: the phone column is not found either.
    }
    if (!hasPhoneColumn(header)) throw new ImportFileError(`${path}: its header names no phone column (phone_number, phone, mobile, …): ${JSON.stringify(firstLine.slice(0, 200))}`);
  }
  // The rest of the file: text all through, and (CSV) no quote left open at its end, which would
  // make one field of everything after it.
  const records = format === 'csv' ? new CsvRecordSplitter(delimiter, RECORD_LIMIT, false) : undefined;
  const cards =
    format === 'vcf'
      ? new CardFileLines((fault, line) => {
          throw new ImportFileError(faultMessage(path, fault, line));
        })
      : undefined;
  const take = async (chunk: Buffer) => {
    if (cards) cards.push(chunk);
    else {
      const fault = text.push(chunk);
      if (fault) await refuse(fault);
      records?.push(chunk);
    }
  };
  if (cards) cards.push(first);
  else records?.push(first);
  let size = bytesRead;
  let textSize = first.length;
  if (bytesRead === SNIFF_BYTES) {
    for await (const chunk of chunksOf(fd, SNIFF_BYTES)) {
      size += chunk.length;
      const text = decoded(chunk);
      textSize += text.length;
      await take(text);
    }
  }
  const cut = utf16?.end();
  if (cut) throw new ImportFileError(utf16Message(path, cut));
  cards?.end();
  const last = cards ? undefined : text.end();
  if (last) await refuse(last);
  const end = records?.end();
  if (end && !Array.isArray(end)) {
    const line = await lineAt(fd, encoding, end.offset);
    throw new ImportFileError(`${path} row ${end.row}: the quote opened at line ${line} is never closed, so the rest of the file would be one cell: close it (or double it, "") and import again`);
  }
  return { path, format, delimiter, size, encoding, textSize };
}

/** The delimiter of a header line: the one of comma, semicolon and tab it holds most of. */
function delimiterOf(header: string): string {
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length - 1] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

const fileName = (path: string): string => path.split(/[\\/]/).at(-1) ?? path;

/**
 * A card's fields for a contact. vCard requires FN, and an export writes the username there for a
 * contact without a display name: an FN that is the NICKNAME is no display name of its own. Its
 * UID is the contact's id in tickbook's own export (another program's UID matches no contact).
 */
export const fieldsOfCard = (card: CardFields): ImportFields => ({
  name: card.name === card.nickname ? undefined : card.name,
  username: card.nickname,
  phones: card.phones,
  avatarUrl: card.photo,
  ...(card.uid !== undefined && { id: card.uid }),
});

/**
 * The bytes of a checked file again, from its start, through the descriptor it was checked
 * through; FileChangedError as soon as it is seen to have been written to since: its size or its
 * time of change after each read (a write changes the time before its bytes can be read), and
 * its bytes checked again (where the time is too coarse to tell).
 */
async function* checkedChunksOf(file: ImportFile, checkText = true): AsyncGenerator<Buffer> {
  const text = checkText ? new TextBytesCheck() : undefined;
  const utf16 = file.encoding === 'utf-8' ? undefined : new Utf16Text(file.encoding);
  let size = 0;
  for await (const bytes of chunksOf(file.fd)) {
    size += bytes.length;
    const now = stateOf(file.fd);
    if (now.mtimeNs !== file.mtimeNs || Number(now.size) !== file.size || size > file.size) throw new FileChangedError(file.path);
    const chunk = utf16 ? utf16.push(bytes) : bytes;
    if ('line' in chunk || text?.push(chunk)) throw new FileChangedError(file.path);
    yield chunk;
  }
  if (size !== file.size || utf16?.end() || text?.end() || stateOf(file.fd).mtimeNs !== file.mtimeNs) throw new FileChangedError(file.path);
}

/** Where in its file (in bytes, about) a record that ends at `offset` in its text ends. */
const fileOffset = (file: ImportFile, offset: number): number => (file.textSize === file.size ? offset : Math.round((offset * file.size) / Math.max(1, file.textSize)));

const tooLarge = (what: 'card' | 'row') =>
  `larger than ${RECORD_LIMIT_WORDS}, the limit for a ${what}: left out, and not written to the rejects file (split it, or shorten its largest values)`;

async function* vcardRecords(file: ImportFile): AsyncGenerator<ImportRecord> {
  // Checked before: a bad byte now is one written since.
  const lines = new CardFileLines(() => {
    throw new FileChangedError(file.path);
  });
  const splitter = new CardSplitter(RECORD_LIMIT);
  let cards = 0;
  /** The cards found together (in a chunk) as ImportRecords. */
  const recordsOf = (found: readonly RawCard[]): ImportRecord[] =>
    found.map(({ raw, line, unended }) => {
      cards++;
      const where = `${fileName(file.path)} card at line ${line}`;
      const offset = fileOffset(file, lines.offset);
      if (raw === undefined) return { where, format: 'vcf', raw, offset, fields: { problem: tooLarge('card') } };
      // A UTF-16 file's text is decoded already: a CHARSET speaks of quoted-printable bytes alone.
      const card = readCard(raw, { line, decoded: file.encoding !== 'utf-8', unended });
      return { where, format: 'vcf', raw, offset, fields: 'problem' in card ? card : fieldsOfCard(card) };
    });
  try {
    for await (const chunk of checkedChunksOf(file, false)) yield* recordsOf(splitter.push(lines.push(chunk)));
    yield* recordsOf([...splitter.push(lines.end()), ...splitter.end()]);
    if (cards === 0) throw new ImportFileError(`${file.path} holds no vCard (no BEGIN:VCARD line)`);
  } catch (error) {
    throw readFailure(file.path, error);
  }
}

async function* csvRecords(file: ImportFile): AsyncGenerator<ImportRecord> {
  const { path, delimiter } = file;
  const splitter = new CsvRecordSplitter(delimiter, RECORD_LIMIT);
  let columns: ReturnType<typeof columnsOf> | undefined;
  let header = '';
  /** The records found together (in a chunk) as ImportRecords; the header taken on the way. */
  const recordsOf = (found: readonly CsvRecord[]): ImportRecord[] => {
    const texts = found.map((record) => record.bytes?.toString('utf8') ?? '');
    const cellsOfRecord = cellsOfEach(texts, delimiter, splitter.recordDelimiter);
    const records: ImportRecord[] = [];
    for (const [i, record] of found.entries()) {
      const where = `${fileName(path)} row ${record.row}`;
      if (record.bytes === undefined) {
        if (!columns) throw new ImportFileError(`${path}: its header row is larger than ${RECORD_LIMIT_WORDS}, the limit for a row`);
        records.push({ where, format: 'csv', raw: undefined, header, offset: fileOffset(file, record.end), fields: { problem: tooLarge('row') } });
        continue;
      }
      // As csv-parse gave a record's raw text with its line end: written CRLF once.
      const raw = `${splitter.recordDelimiter === '\n' ? texts[i]!.replace(/\r$/, '') : texts[i]}\r\n`;
      const cells = cellsOfRecord[i]!;
      if (cells instanceof Error) {
        if (!columns) throw new ImportFileError(`${path} is not CSV tickbook can read: ${cells.message}`);
        records.push({ where, format: 'csv', raw, header, offset: fileOffset(file, record.end), fields: { problem: `not CSV tickbook can read: ${cells.message}` } });
      } else if (!columns) {
        if (!hasPhoneColumn(cells)) throw new ImportFileError(`${path}: its header names no phone column (phone_number, phone, mobile, …): ${JSON.stringify(cells.join(', ').slice(0, 200))}`);
        columns = columnsOf(cells);
        header = raw;
      } else records.push({ where, format: 'csv', raw, header, offset: fileOffset(file, record.end), fields: fieldsOfRow(columns, cells) });
    }
    return records;
  };
  try {
    for await (const chunk of checkedChunksOf(file)) yield* recordsOf(splitter.push(chunk));
    const last = splitter.end();
    // Checked before: only a file changed since can end inside a quote.
    if (!Array.isArray(last)) throw new FileChangedError(path);
    yield* recordsOf(last);
  } catch (error) {
    throw readFailure(path, error);
  }
}

/** The cards or rows of one checked file, in order. */
export function importRecords(file: ImportFile): AsyncGenerator<ImportRecord> {
  return file.format === 'vcf' ? vcardRecords(file) : csvRecords(file);
}
