// Contacts written out as vCard 4.0, CSV, JSON or NDJSON: streamed to any writable (waiting when
// the reader is behind, so the walk is held, not memory), or to a file by the output-file rule
// (output-file.ts: whole or not at all, a FIFO as a stream). For `contacts export` and the x key.
import { stringify } from 'csv-stringify';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Contact } from '../api/types.js';
import { openOutputFile, outputFailure, put } from '../config/output-file.js';
import { contactJson, terminalSafeJson } from './contact-json.js';
import { csvRowOf, csvWriteOptions } from './csv-columns.js';
import type { ExportFormat } from './formats.js';
import { vcardOf } from './vcard-write.js';

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
  // Settled when awaited below; a failure of `out` meanwhile (a FIFO's reader gone) must not be
  // an unhandled rejection, nor leave a write to csv-stringify waiting for a drain that never comes.
  piped?.catch(() => {});
  // As `contacts list --all --json` gives it, a contact a line.
  if (format === 'json') await put(out, '{"has_more":false,"data":[\n');
  for await (const contact of contacts) {
    if (format === 'vcf') await put(out, vcardOf(contact));
    else if (format === 'csv') {
      if (!csv!.write(csvRowOf(contact))) await Promise.race([once(csv!, 'drain'), piped]);
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

/**
 * `writeContacts` into `path` by the output-file rule (a file whole or not at all, mode 0600; a
 * FIFO or device as a stream; `-` is stdout when `dash`; a new file under the next free name,
 * replacing nothing, when `fresh`): the number written, and the path written. Throws
 * OutputFileError: `opening` when nothing was read or written.
 */
export async function writeContactsFile(
  contacts: AsyncIterable<Contact> | Iterable<Contact>,
  format: ExportFormat,
  path: string,
  onContact?: (written: number) => void,
  options: { dash?: boolean; fresh?: boolean } = {},
): Promise<{ count: number; path: string }> {
  const file = await openOutputFile(path, options);
  try {
    const count = await writeContacts(contacts, format, file.stream, onContact);
    return { count, path: await file.finish() };
  } catch (error) {
    file.abandon();
    throw outputFailure(path, error);
  }
}
