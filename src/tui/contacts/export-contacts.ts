// x in the contacts pane: the marked contacts, or every contact, written as a vCard file under a
// new name in the export directory, with what it is doing said in the status line.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TickbookClient } from '../../api/client.js';
import type { Contact } from '../../api/types.js';
import { localDateTime } from '../../text/time.js';
import type { StatusBoard } from '../state/status.js';

export interface ContactsExport {
  client: TickbookClient;
  status: StatusBoard;
  /** The config's export_dir; else the home directory. */
  exportDir: string | undefined;
  ellipsis: string;
}

/** Starts the export of `marked` (or, with none marked, every contact); its end is said in the status line. */
export function exportContacts({ client, status, exportDir, ellipsis }: ContactsExport, marked: readonly Contact[], now = Date.now()): void {
  // Made fresh: under this name, or -2, -3, … when it is taken by the time the export ends
  // (another x a moment before), never over another file.
  const path = join(exportDir ?? homedir(), `tickbook-contacts-${localDateTime(now).replace(/[-:]/g, '').replace(' ', '-')}.vcf`);
  const what = marked.length > 0 ? `the ${marked.length} marked contact${marked.length === 1 ? '' : 's'}` : 'every contact';
  status.notice(`exporting ${what} to ${path}${ellipsis}`);
  let shown = 0;
  // The vCard and CSV writers load when first asked for: they were ~15 ms of every start.
  void Promise.all([import('../../contacts/export.js'), import('../../config/output-file.js')])
    .then(([{ writeContactsFile }, { OutputFileError }]) =>
      writeContactsFile(
        marked.length > 0 ? marked : client.allContacts({ limit: 100 }),
        'vcf',
        path,
        (n) => {
          // A long export says how far it has gone, every few hundred.
          if (n - shown >= 500) {
            shown = n;
            status.notice(`exporting ${what}: ${n}${ellipsis}`);
          }
        },
        { fresh: true },
      ).then(
        ({ count, path: written }) => status.notice(`exported ${count} contact${count === 1 ? '' : 's'} to ${written} (vCard)`),
        // The reason first: a long path must not push it off the line.
        (error: unknown) => status.notice(`export failed: ${error instanceof OutputFileError ? error.reasonFirst() : (error as Error).message}`),
      ),
    )
    .catch((error: unknown) => status.notice(`export failed: ${(error as Error).message}`));
}
