// The vCard 4.0 an export writes (vcardOf), read by the peers people use beside tickbook, as real
// processes: abook (Debian's, its own vCard reader) files each contact's number as its mobile,
// and khard (vobject) lists it as a cell number. Skipped where a peer is not installed
// (`apt-get install abook khard`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/types.js';
import { vcardOf } from '../../src/contacts/vcard.js';
import { cleanEnv } from '../helpers/child.js';

const installed = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

const contact = (id: string, username: string, phoneNumber: string, displayName: string | null, avatarUrl: string | null = null): Contact => ({
  id,
  username,
  phoneNumber,
  displayName,
  avatarUrl,
  conversationId: `cv_${id}`,
  lastActiveAt: null,
  createdAt: new Date('2026-01-02T03:04:05Z'),
});

const CONTACTS = [
  contact('ct_1', 'ada', '+442079460958', 'Ada Lovelace', 'https://img.example/a.png?size=64,64'),
  contact('ct_2', 'grace.h', '+12125550187', 'Hopper, Grace'),
  contact('ct_3', 'no_name', '+447700900123', null),
];

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-vcard-peers-'));
  env = { ...cleanEnv(), HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), XDG_DATA_HOME: join(dir, 'data') };
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the vCard export read by the peers', () => {
  it.skipIf(!installed('abook'))('abook files every number as the mobile, as written (no tel:), beside the name and nickname', () => {
    const file = join(dir, 'export.vcf');
    writeFileSync(file, CONTACTS.map(vcardOf).join(''));
    const out = join(dir, 'abook.txt');
    const run = spawnSync('abook', ['--convert', '--informat', 'vcard', '--infile', file, '--outformat', 'abook', '--outfile', out], { env, encoding: 'utf8', timeout: 10_000 });
    expect(run.status, run.stderr).toBe(0);
    // abook's own format: a [n] section a contact, a field a line.
    const entries = readFileSync(out, 'utf8')
      .split(/\n(?=\[\d+\]\n)/)
      .slice(1)
      .map((section) => Object.fromEntries(section.split('\n').slice(1).filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])));
    // abook does not undo vCard's escaping in text: the comma RFC 6350 has escaped shows as "\,".
    const asAbookShows = (name: string) => name.replace(/,/g, '\\,');
    expect(entries).toEqual(CONTACTS.map((c) => ({ name: asAbookShows(c.displayName ?? c.username), mobile: c.phoneNumber, nick: c.username })));
  });

  it.skipIf(!installed('khard'))('khard lists every number as a cell number of its contact', () => {
    const book = join(dir, 'khard-book');
    mkdirSync(book);
    // khard keeps a card a file.
    for (const c of CONTACTS) writeFileSync(join(book, `${c.id}.vcf`), vcardOf(c));
    mkdirSync(join(dir, 'config', 'khard'), { recursive: true });
    writeFileSync(
      join(dir, 'config', 'khard', 'khard.conf'),
      ['[addressbooks]', '[[tickbook]]', `path = ${book}`, '[general]', 'default_action = list', '[vcard]', 'preferred_version = 4.0', ''].join('\n'),
    );
    const run = spawnSync('khard', ['phone', '--parsable'], { env, encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    const listed = run.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
      .sort((a, b) => a[0]!.localeCompare(b[0]!));
    const expected = CONTACTS.map((c) => [c.phoneNumber, c.displayName ?? c.username, 'cell']).sort((a, b) => a[0]!.localeCompare(b[0]!));
    expect(listed).toEqual(expected);
  });
});
