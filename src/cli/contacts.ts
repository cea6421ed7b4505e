// `tickbook contacts …`: every contact operation, scriptable.
import { LIST_OPTIONS, CREATE_OPTIONS, DELETE_OPTIONS } from './options.js';
import { createInterface } from 'node:readline';
import { parsePossiblePhoneNumber } from '../api/possible-phone.js';
import { contactName, type Contact, type PageQuery } from '../api/types.js';
import { sanitize } from '../text/sanitize.js';
import { contactFields, contactLabel } from '../text/contact-fields.js';
import { relativeTime } from '../text/time.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connection-options.js';
import { contactJson, formatOf, renderFields, renderTable, writeJson, writeNdjson } from './output.js';
import { integerOption, nonEmptyOption, parseCommandLine, refuseNonTextArgument, UsageError } from './usage.js';
import { withClient } from './with-client.js';
import { shellWord } from './shell-word.js';
import { EXPORT_HELP, exportCommand } from './contacts-export.js';
import { IMPORT_HELP, importContacts } from './contacts-import.js';
import { REPORT_DETAILS } from './contacts-import-report.js';
import { RECORD_LIMIT_WORDS } from '../contacts/import-sources.js';
import { duplicatesOf } from '../contacts/duplicates.js';
import { SEARCH_HELP, searchCommand } from './contacts-search.js';

export const CONTACTS_HELP = `Usage:
  tickbook contacts list [--limit N] [--active | --inactive] [--all] [--after ID | --before ID]
  tickbook contacts get ID
  tickbook contacts create --username U --phone P [--display-name D] [--avatar-url URL]
  tickbook contacts rename ID NAME          (an empty NAME resets it to the username)
  tickbook contacts delete ID [--yes]       (asks first on a terminal; elsewhere needs --yes)
${EXPORT_HELP}
${IMPORT_HELP}
  tickbook contacts duplicates [--json]     (contacts sharing a phone number or a display name)
${SEARCH_HELP}

create:
  --phone P                 E.164 (+442079460958; spaces, dashes, dots, parentheses and a (0)
                            after the country code are dropped), of a length the country code's
                            numbers have: too short or too long for it, letters, an @ or an
                            extension (x12, ext. 12, ;ext=12; import too) refused

list:
  --limit N                 contacts per page, 1 to 100 (default 10)
  --active                  only contacts that have been active
  --inactive                only contacts never active
  --all                     every page, not just one
  --after ID                the page after contact ID (older contacts)
  --before ID               the page before contact ID (newer contacts)

search:                     every contact (the list is read into the local index first; when the
                            server cannot be reached, the index as last read is searched, and
                            said): display name, username and phone number (its digits however
                            they are spaced), without case or accents, one typo allowed, best
                            first; name:TEXT, user:TEXT or phone:TEXT look in one field
  --limit N                 at most N matches (default 20)
  --json                    {"status":"success","query":…,"data":[…]}, each contact with the
                            field it matched (name, username or phone)

duplicates:
  --json                    {"status":"success","duplicates":[{"by":"phone"|"name","value":…,
                            "contacts":[…]}]}

export:                     every contact, streamed (stdout unless --output)
  --format F                vcf (vCard 4.0, the default; or the --output file's extension),
                            csv (a header row, RFC 4180; a spreadsheet's formula, = + - @ at
                            the start or after , ; a tab or a line break, written after a ',
                            which import takes off, but for a cell that is a phone number and
                            not the first of a line, written as it is; cells holding , ; or a
                            tab quoted), json or ndjson
  --output FILE             write FILE whole or not at all (mode 0600; a link of yours stays a
                            link and its target is written, one another user owns is refused;
                            another user's file in a sticky directory such as /tmp is not
                            replaced); a FIFO, a terminal or /dev/null of yours or root's is
                            written to as it is (another user's is refused); - is stdout

import:                     vCards (2.1, 3.0, 4.0, no VERSION) and CSV rows into the list
  --format F                auto (the default: by the file's name, else its first line), vcf, csv
  --default-country CC      how to read a phone number written without its country code
                            (GB: 020 7946 0958 is +442079460958); without it such a number is
                            refused
  --dry-run                 check and report, create nothing
  --rejects FILE            write each refused card or row to FILE as it was written (a card
                            byte for byte), to mend and import again (as --output writes a file);
                            one too large to keep is not, and the report's last line names it
  Each FILE is checked whole before anything is sent: a regular file (not a pipe: it is read
  twice), UTF-8 text with no NUL byte anywhere (but a vCard value in the CHARSET it declares; a
  file with UTF-16's byte-order mark is read as UTF-16), a CSV quote closed; else nothing is
  imported.
  What is imported is what was checked: a FILE written to since stops the import there (the
  report so far, then why).
  A vCard gives FN (else N), NICKNAME, TEL and PHOTO (a link), in any version's forms (a
  quoted-printable soft line break never takes in a property's line, or END:VCARD); every other
  property is passed over, whatever its syntax. Of several numbers the mobile (CELL; of two,
  the PREF one) is tried first, then the preferred (PREF), then the rest as written. A
  property's CHARSET (Windows-1252, Shift_JIS, …) is how its value is read; a byte it cannot
  read refuses the card, as does UTF-16 on a raw value (quoted-printable or base64 ones are
  read).
  Lines may end CRLF, LF, CR CR LF, or CR where the file's first line (or a card's BEGIN:VCARD
  line) ends so; a lone CR elsewhere is text. Every card is counted in the report, read or
  refused (an indented one); a card nested in another (AGENT) is part of it.
  A card with no END:VCARD is refused, naming the line where it stops (the next card, or the
  end of a file cut short).
  A card or a CSV row larger than ${RECORD_LIMIT_WORDS} is refused alone (and not written to --rejects); the
  report names the first ${REPORT_DETAILS.toLocaleString('en-US')} refusals of each kind and counts them all.
  Of a CSV row's several numbers the mobile is taken too (a Mobile or Cell column, Google's
  Phone N - Type Mobile; of two, * Mobile), then the one preferred (Primary Phone, a starred
  type), then the first.
  The number taken is said when it is not the first written (--json: numbers_taken).
  A card or row without a username gets one from its name (else its phone number), the same
  every time: importing a file again creates nothing twice, and finishes an import cut short.
  Already there means the same contact: its id (an export's UID or id column), or the username
  it gives with the same phone number, or, with none given, the username made from its name
  with the same phone number and display name. People sharing a number (a family, a
  switchboard) are each created, and noted (tickbook contacts duplicates lists them); one whose
  made username another holds gets the number's last four digits after it (john.smith.0958).
  Creates go four at a time. A 429 holds them all for as long as its Retry-After asks (seconds
  or an HTTP date; on a terminal the progress line counts it down), then each create refused is
  sent again; a server asking for more than 5 minutes stops the import (the report so far).
  Ctrl-C or SIGTERM stops it where it is: the creates under way are answered (a second signal
  cuts them off; a third ends it without a report), then the report so far, marked
  interrupted; exit 130 (SIGTERM: 143).
  An export imported into an empty list gives every contact back, but for one whose number the
  import refuses as impossible (the sandbox stores any E.164): refused with the reason and
  written to --rejects, to mend there and import again.
  Exit 0 when every contact was created or there already, 1 when any was refused or failed.

${CONNECTION_HELP}`;




const LIST_COLUMNS = [
  { title: 'ID' },
  { title: 'NAME', max: 32 },
  { title: 'USERNAME', max: 32 },
  { title: 'PHONE' },
  { title: 'LAST ACTIVE' },
];

function listRow(contact: Contact, now: Date): string[] {
  return [
    contact.id,
    contactName(contact),
    contact.username,
    contact.phoneNumber,
    contact.lastActiveAt ? relativeTime(contact.lastActiveAt, now) : 'never',
  ];
}

function printContact(contact: Contact, json: boolean): void {
  if (json) writeJson(contactJson(contact));
  else process.stdout.write(renderFields([['name', contactName(contact)], ...contactFields(contact)]));
}

function onlyId(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected ${usage}`);
  return positionals[0]!;
}

async function list(args: string[]): Promise<number> {
  const { values } = parseCommandLine(args, LIST_OPTIONS, false);
  const format = formatOf(values);
  if (values.active && values.inactive) throw new UsageError('choose one of --active and --inactive');
  if (values.after !== undefined && values.before !== undefined) throw new UsageError('choose one of --after and --before');
  if (values.all && (values.after !== undefined || values.before !== undefined)) {
    throw new UsageError('--all walks every page from the start; it takes no --after or --before');
  }
  const query: PageQuery = {};
  const limit = integerOption('limit', values.limit, 1, 100);
  if (limit !== undefined) query.limit = limit;
  // Every page is wanted: the largest the API allows (10,006 requests for 100,000 contacts at its default of 10).
  else if (values.all) query.limit = 100;
  if (values.active || values.inactive) query.active = Boolean(values.active);
  const after = nonEmptyOption('after', values.after);
  const before = nonEmptyOption('before', values.before);
  if (after !== undefined) query.startingAfter = after;
  if (before !== undefined) query.endingBefore = before;

  return withClient(values, async ({ client }) => {
    const now = new Date();
    if (values.all) {
      const contacts: Contact[] = [];
      for await (const contact of client.allContacts(query)) {
        if (format === 'ndjson') writeNdjson([contactJson(contact)]);
        else contacts.push(contact);
      }
      if (format === 'json') writeJson({ has_more: false, data: contacts.map(contactJson) });
      if (format === 'table') process.stdout.write(renderTable(LIST_COLUMNS, contacts.map((c) => listRow(c, now))));
      return 0;
    }
    const page = await client.listContacts(query);
    if (format === 'json') writeJson({ has_more: page.hasMore, data: page.contacts.map(contactJson) });
    else if (format === 'ndjson') writeNdjson(page.contacts.map(contactJson));
    else {
      process.stdout.write(renderTable(LIST_COLUMNS, page.contacts.map((c) => listRow(c, now))));
      if (page.next?.startingAfter) {
        // Runnable as printed: every value a shell word, and where this run connected, so the
        // next page comes from the same server. A credential is named by its variable, never shown.
        const words = [
          ...(limit !== undefined ? [`--limit ${limit}`] : []),
          ...(query.active === undefined ? [] : [query.active ? '--active' : '--inactive']),
          `--after ${shellWord(sanitize(page.next.startingAfter))}`,
          ...(values['base-url'] ? [`--base-url ${shellWord(sanitize(values['base-url']))}`] : []),
          ...(values['market-data-url'] ? [`--market-data-url ${shellWord(sanitize(values['market-data-url']))}`] : []),
          ...(values.token ? ['--token "$TICKBOOK_TOKEN"'] : []),
          ...(values['token-file'] ? [`--token-file ${shellWord(sanitize(values['token-file']))}`] : []),
          ...(values['api-key'] ? ['--api-key "$TICKBOOK_API_KEY"'] : []),
          ...(values['api-key-file'] ? [`--api-key-file ${shellWord(sanitize(values['api-key-file']))}`] : []),
          ...(values['insecure-http'] ? ['--insecure-http'] : []),
        ];
        process.stderr.write(`more: tickbook contacts list ${words.join(' ')}\n`);
      }
    }
    return 0;
  });
}

async function get(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, CONNECTION_OPTIONS, true);
  const format = formatOf(values, false);
  const id = onlyId(positionals, 'one contact ID: tickbook contacts get ID');
  return withClient(values, async ({ client }) => {
    printContact(await client.getContact(id), format === 'json');
    return 0;
  });
}

async function create(args: string[]): Promise<number> {
  const { values } = parseCommandLine(args, CREATE_OPTIONS, false);
  const format = formatOf(values, false);
  if (values.username === undefined) throw new UsageError('option --username is required');
  if (values.phone === undefined) throw new UsageError('option --phone is required');
  // Checked before any sandbox starts or request goes: a typo is the command line's mistake.
  const phone = parsePossiblePhoneNumber(values.phone, 'option --phone');
  if (typeof phone !== 'string') throw new UsageError(phone.problem);
  return withClient(values, async ({ client }) => {
    const contact = await client.createContact({
      username: values.username!,
      phoneNumber: phone,
      ...(values['display-name'] !== undefined && { displayName: values['display-name'] }),
      ...(values['avatar-url'] !== undefined && { avatarUrl: values['avatar-url'] }),
    });
    printContact(contact, format === 'json');
    return 0;
  });
}

async function rename(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, CONNECTION_OPTIONS, true);
  const format = formatOf(values, false);
  if (positionals.length !== 2) throw new UsageError('expected an ID and a NAME: tickbook contacts rename ID NAME');
  const [id, name] = positionals as [string, string];
  return withClient(values, async ({ client }) => {
    printContact(await client.updateContact(id, name === '' ? null : name), format === 'json');
    return 0;
  });
}

/**
 * Asks on the terminal. Besides a reply, the question may end with Ctrl-C ('interrupted') or
 * with the end of input, Ctrl-D ('ended'), either of them on the prompt's own line.
 */
function confirm(question: string): Promise<'yes' | 'no' | 'ended' | 'interrupted'> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    let answer: 'yes' | 'no' | 'ended' | 'interrupted' = 'ended';
    // On a terminal readline reads Ctrl-C as a key: with a listener it is reported, not fatal.
    rl.on('SIGINT', () => {
      answer = 'interrupted';
      rl.close();
    });
    rl.on('close', () => resolve(answer));
    rl.question(question, (reply) => {
      answer = /^y(es)?$/i.test(reply.trim()) ? 'yes' : 'no';
      rl.close();
    });
  });
}

async function remove(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, DELETE_OPTIONS, true);
  const format = formatOf(values, false);
  const id = onlyId(positionals, 'one contact ID: tickbook contacts delete ID');
  if (!values.yes && !process.stdin.isTTY) {
    throw new UsageError('refusing to delete without --yes when not on a terminal');
  }
  return withClient(values, async ({ client }) => {
    if (!values.yes) {
      const contact = await client.getContact(id);
      const answer = await confirm(`Delete ${contactLabel(contact)} and the conversation with them? [y/N] `);
      if (answer !== 'yes') {
        // A change of mind, not an error: like `rm -i`, a no (or Ctrl-D) is a success that did
        // nothing; Ctrl-C exits as a shell reports it (130). Status 1 means an API or network error.
        process.stderr.write(`${answer === 'no' ? '' : '\n'}not deleted\n`);
        return answer === 'interrupted' ? 130 : 0;
      }
    }
    const result = await client.deleteContact(id);
    if (format === 'json') writeJson(result);
    else process.stdout.write(`deleted ${sanitize(result.id)} and its conversation\n`);
    return 0;
  });
}

/** Contacts sharing a phone number or a display name, a group at a time, for review. */
async function duplicates(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, CONNECTION_OPTIONS, true);
  const format = formatOf(values, false);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  return withClient(values, async ({ client }) => {
    const all: Contact[] = [];
    for await (const contact of client.allContacts({ limit: 100 })) all.push(contact);
    const groups = duplicatesOf(all);
    if (format === 'json') {
      writeJson({ status: 'success', duplicates: groups.map((g) => ({ by: g.by, value: g.value, contacts: g.contacts.map(contactJson) })) });
      return 0;
    }
    if (groups.length === 0) {
      process.stderr.write(`no duplicates among ${all.length} contacts (by phone number or display name)\n`);
      return 0;
    }
    const now = new Date();
    for (const group of groups) {
      process.stdout.write(`${group.by === 'phone' ? 'same phone number' : 'same name'}: ${sanitize(group.value)}\n`);
      process.stdout.write(`${renderTable(LIST_COLUMNS, group.contacts.map((c) => listRow(c, now))).trimEnd().replace(/^/gm, '  ')}\n`);
    }
    process.stderr.write(`${groups.length} group${groups.length === 1 ? '' : 's'} among ${all.length} contacts\n`);
    return 0;
  });
}

export async function contacts(args: readonly string[]): Promise<number> {
  const [action, ...rest] = args;
  refuseNonTextArgument(action);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(CONTACTS_HELP);
    return 0;
  }
  switch (action) {
    case 'list':
      return list(rest);
    case 'get':
      return get(rest);
    case 'create':
      return create(rest);
    case 'rename':
      return rename(rest);
    case 'delete':
      return remove(rest);
    case 'export':
      return exportCommand(rest);
    case 'import':
      return importContacts(rest);
    case 'duplicates':
      return duplicates(rest);
    case 'search':
      return searchCommand(rest);
    case '-h':
    case '--help':
      process.stdout.write(CONTACTS_HELP);
      return 0;
    case undefined:
      throw new UsageError('expected an action: tickbook contacts list, get, create, rename, delete, export, import, duplicates or search');
    default:
      throw new UsageError(`unknown contacts action ${JSON.stringify(action)}: use list, get, create, rename, delete, export, import, duplicates or search`);
  }
}
