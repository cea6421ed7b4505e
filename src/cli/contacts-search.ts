// `tickbook contacts search TEXT`: every contact, not a page: the list is walked into the local
// index (as the dashboard's search keeps it) and searched there, best matches first. When the
// server cannot be reached, the index as last read is searched, and that is said.
import { SEARCH_OPTIONS } from './options.js';
import { ApiError } from '../api/errors.js';
import type { TickbookClient } from '../api/client.js';
import { contactName } from '../api/types.js';
import { walkIntoIndex } from '../contacts/index-walk.js';
import { ContactSearch } from '../contacts/search.js';
import { sanitize } from '../text/sanitize.js';
import { withHistoryFile } from './history-file.js';
import { ProgressLine } from './progress-line.js';
import { contactJson, formatOf, renderTable, writeJson, writeNdjson } from './output.js';
import { integerOption, parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const SEARCH_HELP = `  tickbook contacts search TEXT [--limit N] [--json | --ndjson]`;


async function search(client: TickbookClient, source: string, text: string, limit: number, format: 'table' | 'json' | 'ndjson', screenReader: boolean | undefined): Promise<number> {
  const { contactIndexOf } = await import('../store/contact-index.js');
  return withHistoryFile({ doing: 'keep the contact index in', writes: true, copies: true }, async (history) => {
    const index = contactIndexOf(history);
    const progress = new ProgressLine(screenReader);
    try {
      await walkIntoIndex(client, index, source, { onPage: (read) => progress.show(`reading the contacts: ${read}`) });
      progress.done();
    } catch (error) {
      progress.done();
      // Unreachable: the index as last read still answers, said as such; nothing indexed, nothing to say.
      const unreachable = error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server');
      if (!unreachable || index.count(source) === 0) throw error;
      process.stderr.write(`tickbook: warning: ${sanitize(error.describe())}: searching the ${index.count(source)} contacts as last read\n`);
    }
    const hits = new ContactSearch(index.all(source)).search(text, limit);
    if (format === 'json') writeJson({ status: 'success', query: text, data: hits.map((hit) => ({ ...contactJson(hit.contact), matched: hit.field })) });
    else if (format === 'ndjson') writeNdjson(hits.map((hit) => ({ ...contactJson(hit.contact), matched: hit.field })));
    else if (hits.length === 0) process.stderr.write(`no contact matches ${JSON.stringify(sanitize(text))}\n`);
    else {
      process.stdout.write(
        renderTable(
          [{ title: 'NAME', max: 32 }, { title: 'USERNAME', max: 32 }, { title: 'PHONE' }, { title: 'ID' }],
          hits.map(({ contact }) => [contactName(contact), contact.username, contact.phoneNumber, contact.id]),
        ),
      );
    }
    return 0;
  });
}

export async function searchCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, SEARCH_OPTIONS, true);
  const format = formatOf(values);
  const text = positionals.join(' ').trim();
  if (text === '') throw new UsageError('expected something to search for: tickbook contacts search ann (or name:ann, user:ann, phone:+44)');
  const limit = integerOption('limit', values.limit, 1, 10_000) ?? 20;
  return withClient(values, ({ client, contactsSource }) => search(client, contactsSource, text, limit, format, values['screen-reader']));
}
