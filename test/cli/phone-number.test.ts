// `tickbook contacts create --phone` as a child process of the built bin: a trunk prefix "(0)" is
// dropped as the contract says, and a number that cannot be one is refused before any request,
// in one line naming --phone, exit 2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTickbookToExit, sandboxEnv, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  home = mkdtempSync(join(tmpdir(), 'tickbook-phone-'));
  env = sandboxEnv(sandbox, home);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(home, { recursive: true, force: true });
});

const posts = () => sandbox.logLines.filter((line) => line.includes('POST /v1/contacts')).length;

describe('contacts create --phone', () => {
  it("'+44 (0) 20 7946 0958' is stored as +442079460958", async () => {
    const result = await runTickbookToExit(['contacts', 'create', '--username', 'uk_office', '--phone', '+44 (0) 20 7946 0958', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).phone_number).toBe('+442079460958');
  });

  it("'+(0)49 30 1234567' (no country code before the (0)) is refused in one line naming --phone, exit 2, with no request", async () => {
    const before = posts();
    expect(before, 'the sandbox logs each create').toBeGreaterThan(0);
    const result = await runTickbookToExit(['contacts', 'create', '--username', 'de_office', '--phone', '+(0)49 30 1234567'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tickbook: option --phone must be in E\.164 form.*\n$/);
    expect(posts()).toBe(before);
  });

  it('a number of a length its country code has, though in a fictional range (NANP 555-01xx, Ofcom drama), is created', async () => {
    for (const [username, phone, stored] of [
      ['nanp_fiction', '+1 212 555 0187', '+12125550187'],
      ['ofcom_drama', '+44 7700 900123', '+447700900123'],
    ]) {
      const result = await runTickbookToExit(['contacts', 'create', '--username', username!, '--phone', phone!, '--json'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).phone_number).toBe(stored);
    }
  });

  it('an impossible number (too short, too long) or no number at all (an address, letters) is refused in one line naming --phone, exit 2, with no request', async () => {
    const before = posts();
    const refused: [phone: string, problem: string][] = [
      ['+1-555-0123', 'option --phone is too short for +1: 7 digits after it, where numbers there have 10'],
      ['+1 (212) 204-34456', 'option --phone is too long for +1: 11 digits after it, where numbers there have 10'],
      ['6101231234@pagersample.com', 'option --phone is not a phone number: it holds an "@" (an address, not a number)'],
      ['+1 212 555 0187 ext. 12', "option --phone is not a phone number: it ends in an extension (12), which a contact's number cannot have (E.164 has none)"],
    ];
    for (const [phone, problem] of refused) {
      const result = await runTickbookToExit(['contacts', 'create', '--username', 'impossible', '--phone', phone], env);
      expect(result.code, phone).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`tickbook: ${problem} (see tickbook --help)\n`);
    }
    expect(posts()).toBe(before);
  });
});
