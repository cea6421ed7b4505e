// The CLI's tables where the locale is not UTF-8: a cut cell ends in "...", never in a character
// the terminal would show as mojibake. The built bin against a real sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellEllipsis, renderTable } from '../../src/cli/output.js';
import { client, runTickbookToExit, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('the contacts table by locale', () => {
  let sandbox: TestSandbox;
  let args: string[];
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const reply = await client(sandbox).create({ username: 'longname', display_name: 'Bartholomew Maximilian Fitzgerald-Worthington', phone_number: '+15550109999' });
    expect(reply.status).toBe(201);
    args = ['contacts', 'list', '--base-url', sandbox.contactsUrl, '--market-data-url', sandbox.marketDataUrl, '--token', sandbox.token, '--api-key', sandbox.apiKey];
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('in the C locale a cut name ends in "...", in a UTF-8 one in "…"', async () => {
    const base = { PATH: process.env.PATH ?? '', HOME: sandbox.dir };
    const ascii = await runTickbookToExit(args, { ...base, LC_ALL: 'C', LANG: 'en_US.UTF-8' });
    expect(ascii.code, ascii.stderr).toBe(0);
    expect(ascii.stdout).toMatch(/Bartholomew Maximilian Fitz\S*\.\.\./);
    expect(ascii.stdout).toMatch(/^[\u0000-\u007f]*$/);
    const unicode = await runTickbookToExit(args, { ...base, LANG: 'en_US.UTF-8' });
    expect(unicode.stdout).toMatch(/Bartholomew Maximilian Fitz\S*…/);
  });

  it('the ellipsis follows LC_ALL, LC_CTYPE, LANG in that order', () => {
    expect(cellEllipsis({ LANG: 'C.UTF-8' })).toBe('…');
    expect(cellEllipsis({})).toBe('...');
    expect(cellEllipsis({ LC_CTYPE: 'POSIX', LANG: 'C.UTF-8' })).toBe('...');
    expect(renderTable([{ title: 'NAME', max: 8 }], [['abcdefghijkl']], '...')).toBe('NAME\nabcde...\n');
  });
});
