// One of tickbook's SQLite files opened as its store opens it, in a process of its own, for a test
// that runs it as another user (unprivileged.ts): prints `opened`, or the error's one line (exit 1).
// node --import tsx open-database-child.ts contacts|history PATH
import { openContactsStore } from '../../src/server/contacts-store.js';
import { openHistoryStore } from '../../src/store/history-store.js';

const [kind, path] = process.argv.slice(2);
try {
  (kind === 'contacts' ? openContactsStore(path!) : openHistoryStore(path!)).close();
  process.stdout.write('opened\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
