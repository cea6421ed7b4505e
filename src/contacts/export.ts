// Contacts written out as vCard 4.0, CSV, JSON or NDJSON: streamed to any writable (waiting when
// the reader is behind, so the walk is held, not memory), or to a file that appears whole or not
// at all (written beside it, then renamed over it). For `contacts export` and the dashboard's x.
import { stringify } from 'csv-stringify';
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Contact } from '../api/types.js';
import { fsReason } from '../config/fs-reason.js';
import { contactJson, terminalSafeJson } from './contact-json.js';
import { csvRowOf, csvWriteOptions } from './csv-columns.js';
import type { ExportFormat } from './formats.js';
import { vcardOf } from './vcard.js';

export class ExportFileError extends Error {
  override readonly name = 'ExportFileError';
  constructor(
    readonly path: string,
    /** What went wrong, in words ("no such file or directory (ENOENT)"). */
    readonly reason: string,
    /** The file could not be made at all (a missing directory, no permission): nothing was read. */
    readonly opening: boolean,
  ) {
    super(`cannot write ${path}: ${reason}`);
  }
}

/** Writes `text`, waiting while the reader is behind. */
async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** Every contact of `contacts` to `out` in `format`; the number written. */
export async function writeContacts(contacts: AsyncIterable<Contact> | Iterable<Contact>, format: ExportFormat, out: Writable, onContact?: (written: number) => void): Promise<number> {
  let count = 0;
  const csv = format === 'csv' ? stringify(csvWriteOptions()) : undefined;
  // csv-stringify is a stream of its own: its text goes on to `out` as it is made.
  const piped =
    csv &&
    (async () => {
      for await (const chunk of csv) await put(out, String(chunk));
    })();
  // As `contacts list --all --json` gives it, a contact a line.
  if (format === 'json') await put(out, '{"has_more":false,"data":[\n');
  for await (const contact of contacts) {
    if (format === 'vcf') await put(out, vcardOf(contact));
    else if (format === 'csv') {
      if (!csv!.write(csvRowOf(contact))) await once(csv!, 'drain');
    } else if (format === 'ndjson') await put(out, `${terminalSafeJson(contactJson(contact))}\n`);
    else await put(out, `${count === 0 ? '' : ',\n'}  ${terminalSafeJson(contactJson(contact))}`);
    count++;
    onContact?.(count);
  }
  if (format === 'json') await put(out, `${count === 0 ? '' : '\n'}]}\n`);
  if (csv) {
    // An empty list still gets its header row (csv-stringify writes it at the end then).
    csv.end();
    await piped;
  }
  return count;
}

/** `writeContacts` into the file at `path`, whole or not at all, mode 0600; the number written. */
export async function writeContactsFile(contacts: AsyncIterable<Contact> | Iterable<Contact>, format: ExportFormat, path: string, onContact?: (written: number) => void): Promise<number> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const file = createWriteStream(temporary, { flags: 'wx', mode: 0o600 });
  try {
    await once(file, 'open');
  } catch (error) {
    throw new ExportFileError(path, fsReason(error), true);
  }
  try {
    const count = await writeContacts(contacts, format, file, onContact);
    await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
    renameSync(temporary, path);
    return count;
  } catch (error) {
    file.destroy();
    rmSync(temporary, { force: true });
    if ((error as { code?: string }).code?.startsWith('E')) throw new ExportFileError(path, fsReason(error), false);
    throw error;
  }
}
