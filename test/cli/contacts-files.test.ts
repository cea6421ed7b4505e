// The files `tickbook contacts export` and `import` write and read, as real processes of the built
// CLI against a real test sandbox on loopback: --output and --rejects by the output-file rule
// (real FIFOs with real reader processes, links planted by another account, a dotfiles link, a
// 0644 file, /dev/null, /dev/full, /dev/stdout, -); import files checked whole before anything is
// sent (a bad byte far past the first 64 KiB), a FIFO or a device refused as an import file;
// cards and rows bounded in size, an unclosed quote refused whole, and refusals counted, not kept.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, closeSync, constants, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runChild, type ChildRun } from '../helpers/child.js';
import { type ProxiedRequest, type Proxy, startProxy } from '../helpers/proxy.js';
import { client, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { NOBODY, RUNS_AS_NOBODY, traversable, unprivileged } from '../helpers/unprivileged.js';

const BIN = join(ROOT, 'bin/tickbook');
const TOKENS = Array.from({ length: 40 }, (_, i) => `tok_contacts_files_${String(i).padStart(2, '0')}_abcdefghij`);
const API_KEY = 'key_contacts_files_abcdefghij';
const isRoot = process.getuid?.() === 0;
/** The demo contacts the first token's list holds. */
const DEMO = 60;

let sandbox: TestSandbox;
let root: string;
const readers = new Set<ChildProcess>();
const proxies: Proxy[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-contacts-files-'));
  traversable(root);
  sandbox = await startTestSandbox({ demoData: true, tokens: TOKENS, apiKeys: [API_KEY] });
});
afterAll(async () => {
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});
afterEach(async () => {
  for (const reader of readers) reader.kill('SIGKILL');
  readers.clear();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

interface Account {
  dir: string;
  at(name: string): string;
  /** `tickbook ARGS` as this account (in its home, as nobody when asked), to its end or a kill at 20 s. */
  run(args: string[], options?: { asNobody?: boolean; timeoutMs?: number; baseUrl?: string }): Promise<ChildRun>;
  /** How many contacts the account's list holds, straight from the API. */
  count(): Promise<number>;
}

let accounts = 0;

/** A home and a contact list of its own; the first token's holds the demo contacts. */
function account(token = TOKENS[++accounts]!): Account {
  const dir = mkdtempSync(join(root, 'home-'));
  chmodSync(dir, 0o777);
  const env = { ...cleanEnv(), HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), TICKBOOK_BASE_URL: sandbox.url, TICKBOOK_TOKEN: token, TICKBOOK_API_KEY: API_KEY };
  const api = client(sandbox, token);
  return {
    dir,
    at: (name) => join(dir, name),
    run: (args, options = {}) => {
      const [command, argv] = options.asNobody ? unprivileged(process.execPath, [BIN, ...args]) : [process.execPath, [BIN, ...args]];
      return runChild(command, argv, { env: { ...env, TICKBOOK_BASE_URL: options.baseUrl ?? sandbox.url }, cwd: dir, timeoutMs: options.timeoutMs ?? 20_000 });
    },
    count: async () => {
      let total = 0;
      let after = '';
      for (;;) {
        const page = await api.list(`?limit=100${after}`);
        expect(page.status).toBe(200);
        total += page.json.data.length;
        if (!page.json.has_more) return total;
        after = `&starting_after=${page.json.data.at(-1).id}`;
      }
    },
  };
}

const source = () => account(TOKENS[0]);

/** `tickbook contacts export ARGS` to stdout: what a file or stream should receive. */
async function exported(from: Account, format: 'csv' | 'vcf'): Promise<string> {
  const run = await from.run(['contacts', 'export', '--format', format]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

// A reader of a FIFO in a process of its own: it opens the FIFO without waiting for a writer
// (so that it is there, reading, before the writer comes), says so, then copies all it reads.
const READER = `
const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
process.stderr.write('ready\\n');
new (require('node:net').Socket)({ fd, readable: true, writable: false }).pipe(process.stdout);
`;

/** A reader waiting on the FIFO at `path`: what it read by the time it ends (killed after the test). */
async function fifoReader(path: string): Promise<{ text: Promise<string> }> {
  const child = spawn(process.execPath, ['-e', READER, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  readers.add(child);
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  const text = new Promise<string>((resolve) => child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => (chunk.toString().includes('ready') ? resolve() : reject(new Error(chunk.toString()))));
    child.on('error', reject);
  });
  return { text };
}

/**
 * A proxy in front of the sandbox that holds the requests `holds` picks until release(): an import
 * made to wait at a known point (its list read, its creates sent) while the test changes its file.
 */
async function holdingProxy(holds: (req: ProxiedRequest) => boolean): Promise<{ url: string; holding(count: number): Promise<void>; release(): void }> {
  let release = () => {};
  const released = new Promise<void>((done) => (release = done));
  let held = 0;
  const waits: { count: number; done: () => void }[] = [];
  const proxy = await startProxy(sandbox.url, {
    hold: (req) => {
      if (!holds(req)) return undefined;
      held++;
      for (const wait of waits) if (held >= wait.count) wait.done();
      return released;
    },
  });
  proxies.push(proxy);
  return {
    url: proxy.url,
    holding: (count) => new Promise<void>((done) => (held >= count ? done() : waits.push({ count, done }))),
    release,
  };
}

/** A CSV of `count` rows no import takes (no phone number), under a header. */
const refusedRows = (count: number) => `name,phone,notes\r\n${Array.from({ length: count }, (_, i) => `Nobody ${i},,row ${i} of a file of refused rows\r\n`).join('')}`;

/** `count` good CSV rows (names with accents), numbered from `from`. */
const goodRows = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `Zoë Jürgen ${from + i},+4477009${String(from + i).padStart(5, '0')}\r\n`).join('');

describe('--output and --rejects: the output-file rule', () => {
  it('a FIFO with a reader waiting gets every byte of an export, and of a rejects file larger than a pipe holds; it stays a FIFO', async () => {
    const from = source();
    const to = account();
    execFileSync('mkfifo', [from.at('export.fifo'), to.at('rejects.fifo')]);
    writeFileSync(to.at('refused.csv'), refusedRows(3000));
    const exportReader = await fifoReader(from.at('export.fifo'));
    const rejectsReader = await fifoReader(to.at('rejects.fifo'));
    const [expected, run, imported] = await Promise.all([
      exported(from, 'csv'),
      from.run(['contacts', 'export', '--format', 'csv', '--output', from.at('export.fifo')], { timeoutMs: 10_000 }),
      to.run(['contacts', 'import', to.at('refused.csv'), '--rejects', to.at('rejects.fifo')], { timeoutMs: 10_000 }),
    ]);
    expect(run).toMatchObject({ code: 0, stderr: `exported ${DEMO} contacts to ${from.at('export.fifo')} (csv)\n`, timedOut: false });
    expect(await exportReader.text).toBe(expected);
    expect(imported).toMatchObject({ code: 1, timedOut: false });
    expect(imported.stdout).toMatch(/^created 0, already present 0, invalid 3000\n/);
    expect(await rejectsReader.text).toBe(refusedRows(3000));
    expect(lstatSync(from.at('export.fifo')).isFIFO()).toBe(true);
    expect(lstatSync(to.at('rejects.fifo')).isFIFO()).toBe(true);
  });

  it('a FIFO nobody reads is refused at once, exit 2, naming the option; nothing is imported', async () => {
    const from = source();
    const to = account();
    execFileSync('mkfifo', [from.at('nobody.fifo'), to.at('nobody.fifo')]);
    writeFileSync(to.at('people.csv'), `name,phone\r\n${goodRows(2)},\r\n`);
    const [run, imported] = await Promise.all([
      from.run(['contacts', 'export', '--output', from.at('nobody.fifo')], { timeoutMs: 10_000 }),
      to.run(['contacts', 'import', to.at('people.csv'), '--rejects', to.at('nobody.fifo')], { timeoutMs: 10_000 }),
    ]);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --output: ${from.at('nobody.fifo')} is a FIFO (named pipe) that nothing is reading: not written (see tickbook --help)\n` });
    expect(imported).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --rejects: ${to.at('nobody.fifo')} is a FIFO (named pipe) that nothing is reading: not written (see tickbook --help)\n` });
    expect(lstatSync(from.at('nobody.fifo')).isFIFO()).toBe(true);
    expect(await to.count()).toBe(0);
  });

  it.skipIf(!isRoot)('a link another account planted is not followed: exit 2 naming it and its owner, the file it points at untouched, nothing imported', async () => {
    const from = source();
    const to = account();
    // A shared directory; the user's own 0600 files elsewhere; links to them, owned by nobody.
    const shared = join(root, `shared-${accounts}`);
    mkdirSync(shared, { mode: 0o1777 });
    for (const who of [from, to]) writeFileSync(who.at('own.txt'), 'the user’s own file\n', { mode: 0o600 });
    symlinkSync(from.at('own.txt'), join(shared, 'export.vcf'));
    symlinkSync(to.at('own.txt'), join(shared, 'rejects.csv'));
    lchownSync(join(shared, 'export.vcf'), NOBODY, NOBODY);
    lchownSync(join(shared, 'rejects.csv'), NOBODY, NOBODY);
    writeFileSync(to.at('people.csv'), `name,phone\r\n${goodRows(2)},\r\n`);
    const [run, imported] = await Promise.all([
      from.run(['contacts', 'export', '--output', join(shared, 'export.vcf')]),
      to.run(['contacts', 'import', to.at('people.csv'), '--rejects', join(shared, 'rejects.csv')]),
    ]);
    const planted = (name: string) => `${join(shared, name)} is a symbolic link owned by another user (uid ${NOBODY}): not followed (see tickbook --help)\n`;
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --output: ${planted('export.vcf')}` });
    expect(imported).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --rejects: ${planted('rejects.csv')}` });
    for (const who of [from, to]) {
      expect(readFileSync(who.at('own.txt'), 'utf8')).toBe('the user’s own file\n');
      expect(statSync(who.at('own.txt')).mode & 0o777).toBe(0o600);
    }
    expect(lstatSync(join(shared, 'export.vcf')).isSymbolicLink()).toBe(true);
    expect(readdirSync(shared).sort()).toEqual(['export.vcf', 'rejects.csv']);
    expect(await to.count()).toBe(0);
  });

  it.skipIf(!isRoot)('a FIFO another account made in a shared directory, its reader waiting, is not written to: exit 2 naming it and its owner', async () => {
    const from = source();
    const to = account();
    const shared = join(root, `shared-${accounts}`);
    mkdirSync(shared, { mode: 0o1777 });
    chmodSync(shared, 0o1777);
    const [exportFifo, rejectsFifo] = [join(shared, 'contacts.vcf'), join(shared, 'rejects.csv')];
    execFileSync('mkfifo', ['-m', '666', exportFifo, rejectsFifo]);
    for (const fifo of [exportFifo, rejectsFifo]) chownSync(fifo, NOBODY, NOBODY);
    const exportReader = await fifoReader(exportFifo);
    const rejectsReader = await fifoReader(rejectsFifo);
    writeFileSync(to.at('people.csv'), refusedRows(3));
    const [run, imported] = await Promise.all([
      from.run(['contacts', 'export', '--output', exportFifo]),
      to.run(['contacts', 'import', to.at('people.csv'), '--rejects', rejectsFifo]),
    ]);
    const planted = (fifo: string) => `${fifo} is a FIFO (named pipe) owned by another user (uid ${NOBODY}): not written (see tickbook --help)\n`;
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --output: ${planted(exportFifo)}` });
    expect(imported).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --rejects: ${planted(rejectsFifo)}` });
    // The readers are let go (a writer that comes and goes): they were given nothing.
    for (const fifo of [exportFifo, rejectsFifo]) closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    expect(await exportReader.text).toBe('');
    expect(await rejectsReader.text).toBe('');
  });

  it('a link of the user’s own (into a dotfiles directory) stays a link, its target written 0600; an older 0644 file becomes 0600', async () => {
    const from = source();
    const to = account();
    mkdirSync(from.at('dotfiles'));
    mkdirSync(to.at('dotfiles'));
    writeFileSync(from.at('dotfiles/contacts.vcf'), 'an older export\n', { mode: 0o644 });
    writeFileSync(to.at('dotfiles/rejects.csv'), 'older rejects\n', { mode: 0o644 });
    symlinkSync('dotfiles/contacts.vcf', from.at('contacts.vcf'));
    symlinkSync(to.at('dotfiles/rejects.csv'), to.at('rejects.csv'));
    writeFileSync(from.at('plain.csv'), 'an older export, readable by all\n', { mode: 0o644 });
    writeFileSync(to.at('plain-rejects.csv'), 'older rejects, readable by all\n', { mode: 0o644 });
    for (const file of [from.at('dotfiles/contacts.vcf'), to.at('dotfiles/rejects.csv'), from.at('plain.csv'), to.at('plain-rejects.csv')]) chmodSync(file, 0o644);
    writeFileSync(to.at('people.csv'), refusedRows(3));
    const [vcf, csv, run, plain, imported, importedPlain] = await Promise.all([
      exported(from, 'vcf'),
      exported(from, 'csv'),
      from.run(['contacts', 'export', '--output', from.at('contacts.vcf')]),
      from.run(['contacts', 'export', '--output', from.at('plain.csv')]),
      to.run(['contacts', 'import', to.at('people.csv'), '--rejects', to.at('rejects.csv')]),
      to.run(['contacts', 'import', to.at('people.csv'), '--rejects', to.at('plain-rejects.csv')]),
    ]);
    expect(run).toMatchObject({ code: 0, stderr: `exported ${DEMO} contacts to ${from.at('contacts.vcf')} (vcf)\n` });
    expect(plain.code, plain.stderr).toBe(0);
    expect(imported.code, imported.stderr).toBe(1);
    expect(importedPlain.code, importedPlain.stderr).toBe(1);
    for (const [link, target] of [
      [from.at('contacts.vcf'), from.at('dotfiles/contacts.vcf')],
      [to.at('rejects.csv'), to.at('dotfiles/rejects.csv')],
    ] as const) {
      expect(lstatSync(link).isSymbolicLink(), link).toBe(true);
      expect(statSync(target).mode & 0o777, target).toBe(0o600);
    }
    expect(readFileSync(from.at('dotfiles/contacts.vcf'), 'utf8')).toBe(vcf);
    expect(readFileSync(to.at('dotfiles/rejects.csv'), 'utf8')).toBe(refusedRows(3));
    expect(readFileSync(from.at('plain.csv'), 'utf8')).toBe(csv);
    expect(readFileSync(to.at('plain-rejects.csv'), 'utf8')).toBe(refusedRows(3));
    for (const file of [from.at('plain.csv'), to.at('plain-rejects.csv')]) expect(statSync(file).mode & 0o777, file).toBe(0o600);
    for (const dir of [from.dir, to.dir, from.at('dotfiles'), to.at('dotfiles')]) expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('/dev/stdout through a link of the user’s, and -, are standard output: the link stays, no file named - is made', async () => {
    const from = source();
    symlinkSync('/dev/stdout', from.at('out.vcf'));
    const [expected, viaLink, dash] = await Promise.all([
      exported(from, 'vcf'),
      from.run(['contacts', 'export', '--output', from.at('out.vcf')]),
      from.run(['contacts', 'export', '--format', 'csv', '--output', '-']),
    ]);
    expect(viaLink).toMatchObject({ code: 0, stderr: `exported ${DEMO} contacts to ${from.at('out.vcf')} (vcf)\n` });
    expect(viaLink.stdout).toBe(expected);
    expect(lstatSync(from.at('out.vcf')).isSymbolicLink()).toBe(true);
    expect(dash).toMatchObject({ code: 0, stderr: `exported ${DEMO} contacts (csv)\n` });
    expect(dash.stdout).toMatch(/^id,username,display_name,phone_number,/);
    expect(existsSync(from.at('-'))).toBe(false);
  });

  // As an ordinary user would run them (nobody, when the tests run as root): /dev is not theirs
  // to write in, and a device is written to, never replaced.
  it('/dev/null takes an export and a rejects file and stays a device; /dev/full fails naming the option and the reason, exit 1', async () => {
    const from = source();
    const to = account();
    writeFileSync(to.at('refused.csv'), refusedRows(3));
    chmodSync(to.at('refused.csv'), 0o644);
    const [toNull, toFull, imported, rejectsFull] = await Promise.all([
      from.run(['contacts', 'export', '--output', '/dev/null'], { asNobody: RUNS_AS_NOBODY }),
      from.run(['contacts', 'export', '--output', '/dev/full'], { asNobody: RUNS_AS_NOBODY }),
      to.run(['contacts', 'import', to.at('refused.csv'), '--rejects', '/dev/null'], { asNobody: RUNS_AS_NOBODY }),
      to.run(['contacts', 'import', to.at('refused.csv'), '--rejects', '/dev/full'], { asNobody: RUNS_AS_NOBODY }),
    ]);
    expect(toNull).toMatchObject({ code: 0, stdout: '', stderr: `exported ${DEMO} contacts to /dev/null (vcf)\n` });
    expect(toFull).toMatchObject({ code: 1, stdout: '', stderr: 'tickbook: option --output: cannot write /dev/full: no space left on the device (ENOSPC)\n' });
    expect(imported).toMatchObject({ code: 1, stderr: '' });
    expect(imported.stdout).toMatch(/^created 0, already present 0, invalid 3\n[\s\S]*the refused cards and rows are in \/dev\/null, as they were written\n$/);
    // The import's report, then why the rejects are not written.
    expect(rejectsFull).toMatchObject({ code: 1, stderr: 'tickbook: option --rejects: cannot write /dev/full: no space left on the device (ENOSPC)\n' });
    expect(rejectsFull.stdout).toMatch(/^created 0, already present 0, invalid 3\n/);
    for (const device of ['/dev/null', '/dev/full']) expect(lstatSync(device).isCharacterDevice(), device).toBe(true);
  });
});

describe('--rejects failing part way', () => {
  // As nobody, as the /dev/full case above. Each write of a refusal is taken at once and fails a
  // moment later: the next refusal, tens of KiB of good rows on, meets a rejects file that has
  // already failed, where a wait for it to drain would never end.
  it('refusals far apart into /dev/full: the reading stops, the report so far, then the error; exit 1, no hang', async () => {
    const to = account();
    // Four refused rows, 6,000 good rows (200 KB) between each two: chunks read apart. (Before,
    // the wait for a drain that never came emptied the event loop: exit 0 and no word at all.)
    const rows = Array.from({ length: 4 }, (_, i) => `Nobody ${i},,refused\r\n${goodRows(6000, i * 6000)}`).join('');
    writeFileSync(to.at('sparse.csv'), `name,phone,notes\r\n${rows}`);
    chmodSync(to.at('sparse.csv'), 0o644);
    const run = await to.run(['contacts', 'import', to.at('sparse.csv'), '--dry-run', '--rejects', '/dev/full'], { asNobody: RUNS_AS_NOBODY, timeoutMs: 15_000 });
    expect(run).toMatchObject({ code: 1, timedOut: false, stderr: 'tickbook: option --rejects: cannot write /dev/full: no space left on the device (ENOSPC)\n' });
    const lines = run.stdout.trimEnd().split('\n');
    // The first refusal is written and fails; the reading stops at the next (or one after).
    const [, created, invalid] = /^would create (\d+), already present 0, invalid (\d)$/.exec(lines[0]!) ?? [];
    expect(Number(invalid), run.stdout).toBeGreaterThanOrEqual(2);
    expect(Number(invalid), run.stdout).toBeLessThan(4);
    expect(Number(created)).toBeLessThan(24_000);
    expect(lines.slice(1, 1 + Number(invalid))).toEqual(Array.from({ length: Number(invalid) }, (_, i) => `  sparse.csv row ${i * 6001 + 2}: no phone number`));
    expect(lines.slice(1 + Number(invalid))).toEqual(['stopped: the rejects file /dev/full cannot be written; run the same import again to finish it (nothing is created twice)']);
  });

  it('refusals close together, more than the rejects stream buffers: the report, then the error (not the error alone); --json says stopped', async () => {
    const to = account();
    writeFileSync(to.at('refused.csv'), refusedRows(3000));
    chmodSync(to.at('refused.csv'), 0o644);
    const [text, json] = await Promise.all([
      to.run(['contacts', 'import', to.at('refused.csv'), '--rejects', '/dev/full'], { asNobody: RUNS_AS_NOBODY, timeoutMs: 15_000 }),
      to.run(['contacts', 'import', to.at('refused.csv'), '--rejects', '/dev/full', '--json'], { asNobody: RUNS_AS_NOBODY, timeoutMs: 15_000 }),
    ]);
    const error = 'tickbook: option --rejects: cannot write /dev/full: no space left on the device (ENOSPC)\n';
    expect(text).toMatchObject({ code: 1, timedOut: false, stderr: error });
    expect(text.stdout).toMatch(/^created 0, already present 0, invalid \d+\n {2}refused\.csv row 2: no phone number\n/);
    expect(text.stdout).not.toContain('are in /dev/full');
    expect(json).toMatchObject({ code: 1, timedOut: false, stderr: error });
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'stopped', created: 0, stopped: 'the rejects file /dev/full cannot be written' });
  });
});

describe('import files: checked whole, a FIFO or device refused', () => {
  it('a bad byte or a NUL far past the first 64 KiB refuses the file whole, naming the line; nothing is created', async () => {
    const to = account();
    // 3,000 good rows (100 KB) and then José in Latin-1, as the issue found it.
    writeFileSync(to.at('contacts.csv'), Buffer.concat([Buffer.from(`name,phone\r\n${goodRows(3000)}`), Buffer.from('Jos\xe9,+447700999999\r\n', 'latin1'), Buffer.from(goodRows(5, 5000))]));
    const cards = Array.from({ length: 1200 }, (_, i) => `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Card ${i}\r\nTEL:+4477009${String(i).padStart(5, '0')}\r\nEND:VCARD\r\n`).join('');
    writeFileSync(to.at('cards.vcf'), Buffer.concat([Buffer.from(cards), Buffer.from('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Fran\xe7ois\r\nTEL:+447700988888\r\nEND:VCARD\r\n', 'latin1')]));
    writeFileSync(to.at('nul.csv'), `name,phone\r\n${goodRows(3000)}Nul\0l,+447700977777\r\n`);
    // A good file whose accents and emoji straddle the 64 KiB and 256 KiB chunk bounds.
    writeFileSync(to.at('good.csv'), `name,phone\r\n${Array.from({ length: 9000 }, (_, i) => `😀 Zoë ${i},+4477009${String(i).padStart(5, '0')}\r\n`).join('')}`);
    const [csv, vcf, nul, good] = await Promise.all([
      to.run(['contacts', 'import', to.at('contacts.csv')]),
      to.run(['contacts', 'import', to.at('cards.vcf')]),
      to.run(['contacts', 'import', to.at('nul.csv')]),
      to.run(['contacts', 'import', to.at('good.csv'), '--dry-run']),
    ]);
    expect(csv).toMatchObject({ code: 1, stdout: '', stderr: `tickbook: ${to.at('contacts.csv')} line 3002 is not UTF-8 text (byte 0xE9): save it as UTF-8 and import it again\n` });
    expect(vcf).toMatchObject({ code: 1, stdout: '', stderr: `tickbook: ${to.at('cards.vcf')} line 6003 is not UTF-8 text (byte 0xE7): save it as UTF-8 and import it again\n` });
    expect(nul).toMatchObject({ code: 1, stdout: '', stderr: `tickbook: ${to.at('nul.csv')} line 3002 is not text (it holds a NUL byte, binary data): expected a vCard (.vcf) or CSV file\n` });
    expect(good).toMatchObject({ code: 0, stdout: 'would create 9000, already present 0, invalid 0\n', stderr: '' });
    expect(await to.count()).toBe(0);
  });

  it('a vCard value in the charset its property declares passes the check, far past 64 KiB; an undeclared byte in the same card still refuses the file, naming its line', async () => {
    const to = account();
    const cards = Array.from({ length: 1200 }, (_, i) => `BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Card ${i}\r\nTEL;CELL:+4477009${String(i).padStart(5, '0')}\r\nEND:VCARD\r\n`).join('');
    // Shift_JIS (田中 健二, ﾀﾅｶ) and Windows-1252 (Renée), raw 8-bit, as Japanese phones and Outlook write them.
    const declared = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=SHIFT_JIS:'),
      Buffer.from([0x93, 0x63, 0x92, 0x86, 0x3b, 0x8c, 0x92, 0x93, 0xf1]),
      Buffer.from(';;;\r\nSOUND;X-IRMC-N;CHARSET=SHIFT_JIS:'),
      Buffer.from([0xc0, 0xc5, 0xb6]),
      Buffer.from(';;;;\r\nTEL;CELL:+819012345678\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=Windows-1252:Ren\xe9e\r\nTEL;CELL:+33612345678\r\nEND:VCARD\r\n', 'latin1'),
    ]);
    writeFileSync(to.at('declared.vcf'), Buffer.concat([Buffer.from(cards), declared]));
    // The same, and a NOTE in the Windows-1252 card that declares nothing.
    writeFileSync(to.at('stray.vcf'), Buffer.concat([Buffer.from(cards), declared.subarray(0, -11), Buffer.from('NOTE:caf\xe9\r\nEND:VCARD\r\n', 'latin1')]));
    const [good, stray] = await Promise.all([to.run(['contacts', 'import', to.at('declared.vcf')]), to.run(['contacts', 'import', to.at('stray.vcf')])]);
    expect(good).toMatchObject({ code: 0, stdout: 'created 1202, already present 0, invalid 0\n', stderr: '' });
    expect(stray).toMatchObject({ code: 1, stdout: '', stderr: `tickbook: ${to.at('stray.vcf')} line 6011 is not UTF-8 text (byte 0xE9): save it as UTF-8 and import it again\n` });
    // The import sends four at a time: the last two cards are among the four created last, in the
    // order their answers came (once, under load, Card 1199's after 田中 健二's).
    const list = await to.run(['contacts', 'list', '--limit', '4', '--json']);
    expect(JSON.parse(list.stdout).data.map((c: { display_name: string }) => c.display_name)).toEqual(expect.arrayContaining(['Renée', '田中 健二']));
  });

  it('UTF-16 with a byte-order mark (Excel’s "Unicode text", either byte order): read as text, far past 64 KiB; its refused rows and cards go to --rejects as UTF-8; a bad surrogate refuses the file, naming its line', async () => {
    const to = account();
    const utf16 = (text: string, order: 'le' | 'be' = 'le') => {
      const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
      return order === 'le' ? le : Buffer.from(le).swap16();
    };
    // Excel's "Unicode text": tab-separated, CRLF; 2,000 rows (about 150 KB), accents and emoji across the chunks.
    const rows = Array.from({ length: 2000 }, (_, i) => `Zoë 😀 ${i}\t+4477009${String(i).padStart(5, '0')}\r\n`).join('');
    writeFileSync(to.at('excel.txt'), utf16(`Name\tMobile Phone\r\n${rows}Łukasz\t020 7946 0999\r\n`));
    const card = (name: string, phone: string) => `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:${name}\r\nTEL;TYPE=CELL:${phone}\r\nEND:VCARD\r\n`;
    writeFileSync(to.at('cards.vcf'), utf16(card('Ōtsuka Ren', '+819011112222') + card('Ünal Ay', '0532 111 2233'), 'be'));
    writeFileSync(to.at('bad.csv'), Buffer.concat([utf16('Name,Phone\r\nA,+447700900001\r\nB'), Buffer.from([0x00, 0xd8]), Buffer.from(',+447700900002\r\n', 'utf16le')]));
    const [excel, cards, bad] = await Promise.all([
      to.run(['contacts', 'import', to.at('excel.txt'), '--rejects', to.at('rejects.csv')]),
      to.run(['contacts', 'import', to.at('cards.vcf'), '--rejects', to.at('rejects.vcf')]),
      to.run(['contacts', 'import', to.at('bad.csv')]),
    ]);
    const noCountry = (phone: string) => `phone "${phone}" has no country code: give --default-country (e.g. GB, US) to say how to read it`;
    expect(excel).toMatchObject({ code: 1, stderr: '', stdout: `created 2000, already present 0, invalid 1\n  excel.txt row 2002: ${noCountry('020 7946 0999')}\nthe refused cards and rows are in ${to.at('rejects.csv')}, as they were written\n` });
    expect(readFileSync(to.at('rejects.csv'), 'utf8')).toBe('Name\tMobile Phone\r\nŁukasz\t020 7946 0999\r\n');
    expect(cards).toMatchObject({ code: 1, stderr: '', stdout: `created 1, already present 0, invalid 1\n  cards.vcf card at line 6: ${noCountry('0532 111 2233')}\nthe refused cards and rows are in ${to.at('rejects.vcf')}, as they were written\n` });
    expect(readFileSync(to.at('rejects.vcf'), 'utf8')).toBe(card('Ünal Ay', '0532 111 2233'));
    expect(bad).toMatchObject({ code: 1, stdout: '', stderr: `tickbook: ${to.at('bad.csv')} line 3 is not UTF-16 text, though it begins with UTF-16's byte-order mark: save it again (as UTF-8 or UTF-16) and import it again\n` });
    expect(await to.count()).toBe(2001);
  });

  it('a FIFO (with or without a writer) or a device as an import file is refused at once, naming it; nothing is created', async () => {
    const to = account();
    execFileSync('mkfifo', [to.at('alone.fifo'), to.at('fed.fifo')]);
    // A writer waiting to give a CSV through the FIFO: the import must not take it (it reads twice).
    const writer = spawn('sh', ['-c', `printf 'name,phone\\r\\nAda,+447700900001\\r\\n' > '${to.at('fed.fifo')}'`], { stdio: 'ignore' });
    readers.add(writer);
    const why = 'not a regular file: an import reads its files twice (checked, then imported), so it cannot read a pipe or a device; save it to a file first';
    const runs = await Promise.all([
      to.run(['contacts', 'import', to.at('alone.fifo')], { timeoutMs: 10_000 }),
      to.run(['contacts', 'import', to.at('fed.fifo')], { timeoutMs: 10_000 }),
      to.run(['contacts', 'import', '--format', 'csv', '/dev/zero'], { timeoutMs: 10_000 }),
    ]);
    expect(runs[0]).toMatchObject({ code: 1, timedOut: false, stdout: '', stderr: `tickbook: ${to.at('alone.fifo')} is a FIFO (named pipe), ${why}\n` });
    expect(runs[1]).toMatchObject({ code: 1, timedOut: false, stdout: '', stderr: `tickbook: ${to.at('fed.fifo')} is a FIFO (named pipe), ${why}\n` });
    expect(runs[2]).toMatchObject({ code: 1, timedOut: false, stdout: '', stderr: `tickbook: /dev/zero is a character device, ${why}\n` });
    expect(await to.count()).toBe(0);
  });
});

describe('import files: what is imported is what was checked', () => {
  // The import checks its files, then reads the contacts there are (held here), then imports.
  const listRead = (req: ProxiedRequest) => req.method === 'GET' && req.url.split('?')[0] === '/v1/contacts';
  const bad = Buffer.from('Jos\xe9,+447700999999\r\n', 'latin1');
  const changed = (path: string) => `tickbook: ${path} changed after it was checked (it was written to meanwhile): import it again once it is saved\n`;
  const notToTheEnd = (path: string) => `stopped: ${path} was not read to the end; run the same import again to finish it (nothing is created twice)`;

  it('a file written to between its check and its import: nothing of it is imported (the file before it is); the report, then why; exit 1', async () => {
    const to = account();
    writeFileSync(to.at('people.csv'), `name,phone\r\n${goodRows(5)}`);
    const card = (name: string, phone: string) => `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:${name}\r\nTEL:${phone}\r\nEND:VCARD\r\n`;
    writeFileSync(to.at('cards.vcf'), card('Card One', '+447700911111') + card('Card Two', '+447700911112'));
    const proxy = await holdingProxy(listRead);
    const run = to.run(['contacts', 'import', to.at('people.csv'), to.at('cards.vcf')], { baseUrl: proxy.url });
    await proxy.holding(1);
    // Both checked good; a card with a Latin-1 ç added to the second before it is read again.
    appendFileSync(to.at('cards.vcf'), Buffer.from(card('Fran\xe7ois', '+447700911113'), 'latin1'));
    proxy.release();
    expect(await run).toMatchObject({ code: 1, stdout: `created 5, already present 0, invalid 0\n${notToTheEnd(to.at('cards.vcf'))}\n`, stderr: changed(to.at('cards.vcf')) });
    expect(await to.count()).toBe(5);
  });

  it('a file saved again (a new file renamed over it, as editors save) after its check: the file checked is the one imported', async () => {
    const to = account();
    writeFileSync(to.at('people.csv'), `name,phone\r\n${goodRows(5)}`);
    const proxy = await holdingProxy(listRead);
    const run = to.run(['contacts', 'import', to.at('people.csv')], { baseUrl: proxy.url });
    await proxy.holding(1);
    writeFileSync(to.at('people.csv.new'), Buffer.concat([Buffer.from(`name,phone\r\n${goodRows(5)}`), bad]));
    renameSync(to.at('people.csv.new'), to.at('people.csv'));
    proxy.release();
    expect(await run).toMatchObject({ code: 0, stdout: 'created 5, already present 0, invalid 0\n', stderr: '' });
    expect(await to.count()).toBe(5);
  });

  it('a file written to part way through its import: the reading stops there, the creates under way finish; the report so far, then why', async () => {
    const to = account();
    // Five to create, then 3,000 rows of the same five (already present, nothing sent): more than
    // the first 64 KiB read, so the rest is read only after the creates are held.
    const five = goodRows(5);
    const text = `name,phone\r\n${five}${five.repeat(600)}`;
    writeFileSync(to.at('people.csv'), text);
    const proxy = await holdingProxy((req) => req.method === 'POST');
    const run = to.run(['contacts', 'import', to.at('people.csv')], { baseUrl: proxy.url });
    // Four creates sent (as many as go at once): the import waits; its first 64 KiB are read.
    await proxy.holding(4);
    // The last row made a new contact with a Latin-1 é, the file's size the same.
    const last = Buffer.from(goodRows(1, 4));
    const tail = ',+447700999999\r\n';
    const fd = openSync(to.at('people.csv'), 'r+');
    writeSync(fd, Buffer.from(`Jos\xe9${' '.repeat(last.length - 4 - tail.length)}${tail}`, 'latin1'), 0, last.length, Buffer.byteLength(text) - last.length);
    closeSync(fd);
    proxy.release();
    const done = await run;
    expect(done).toMatchObject({ code: 1, stderr: changed(to.at('people.csv')) });
    const lines = done.stdout.trimEnd().split('\n');
    const present = Number(/^created 5, already present (\d+), invalid 0$/.exec(lines[0]!)?.[1]);
    expect(present, done.stdout).toBeGreaterThan(0);
    expect(present).toBeLessThan(3000);
    expect(lines.slice(1)).toEqual([notToTheEnd(to.at('people.csv'))]);
    expect(await to.count()).toBe(5);
  });
});

describe('import: bounded cards and rows, refusals counted', () => {
  const MB = 1024 * 1024;
  const card = (name: string, phone: string, extra: string[] = []) => ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, `TEL:${phone}`, ...extra, 'END:VCARD', ''].join('\r\n');

  it('a card over 1 MiB, and one never ended, are refused alone; the cards after them are imported; neither is kept for the rejects file', async () => {
    const to = account();
    // 1.5 MB of folded NOTE: a card that would otherwise be imported; then BEGIN:VCARD and 1.2 MB
    // of lines with no END:VCARD, then a good card.
    const note = `NOTE:${'n'.repeat(70)}${'\r\n '.concat('n'.repeat(74)).repeat(Math.ceil((1.5 * MB) / 77))}`;
    const lines = Array.from({ length: Math.ceil((1.2 * MB) / 40) }, (_, i) => `X-LINE-${i}:${'x'.repeat(24)}`);
    const text = card('Before', '+447700900001') + card('Big', '+447700900002', [note]) + ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Never Ended', ...lines, ''].join('\r\n') + card('After', '+447700900003');
    writeFileSync(to.at('big.vcf'), text);
    // Each card's BEGIN:VCARD is two lines above its FN (from 1: the FN's index less one).
    const bigLine = text.split('\r\n').indexOf('FN:Big') - 1;
    const neverLine = text.split('\r\n').indexOf('FN:Never Ended') - 1;
    const run = await to.run(['contacts', 'import', to.at('big.vcf'), '--rejects', to.at('rejects.vcf')]);
    const reason = 'larger than 1 MiB, the limit for a card: left out, and not written to the rejects file (split it, or shorten its largest values)';
    expect(run).toMatchObject({
      code: 1,
      stderr: '',
      stdout: `created 2, already present 0, invalid 2\n  big.vcf card at line ${bigLine}: ${reason}\n  big.vcf card at line ${neverLine}: ${reason}\nnone of the refused is in ${to.at('rejects.vcf')}: big.vcf card at line ${bigLine}, big.vcf card at line ${neverLine} are larger than 1 MiB, too large to keep, so not written there\n`,
    });
    expect(readFileSync(to.at('rejects.vcf'), 'utf8')).toBe('');
    expect(await to.count()).toBe(2);
    // With a card refused that is kept (five lines before the rest): it is in the rejects file, and the large ones named as not.
    const small = card('No Number', '');
    writeFileSync(to.at('some.vcf'), small + text);
    const some = await to.run(['contacts', 'import', to.at('some.vcf'), '--rejects', to.at('some-rejects.vcf')]);
    expect(some.stdout.trimEnd().split('\n').at(-1)).toBe(
      `the refused cards and rows are in ${to.at('some-rejects.vcf')}, as they were written, but for big.vcf card at line ${bigLine + 5}, big.vcf card at line ${neverLine + 5} (larger than 1 MiB, too large to keep)`.replaceAll('big.vcf', 'some.vcf'),
    );
    expect(readFileSync(to.at('some-rejects.vcf'), 'utf8')).toBe(small);
  });

  it('every card of a file is counted, read or refused with the reason: a card of lone-CR line ends after LF ones, an indented card, BEGIN: VCARD', async () => {
    const to = account();
    const lf = (name: string, phone: string) => `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL:${phone}\nEND:VCARD\n`;
    // cat unix.vcf mac.vcf: a classic Mac's cards (CR line ends, the last without one) after a Unix one.
    const mac = (name: string, phone: string) => `BEGIN:VCARD\rVERSION:3.0\rFN:${name}\rTEL:${phone}\rEND:VCARD\r`;
    writeFileSync(to.at('mixed.vcf'), lf('Unix', '+447700900101') + mac('Mac', '+447700900102') + mac('Mac Two', '+447700900103'));
    const indented = '  BEGIN:VCARD\n  FN:Two\n  TEL:+447700900105\n  END:VCARD\n';
    writeFileSync(
      to.at('variants.vcf'),
      lf('One', '+447700900104') + indented + 'BEGIN: VCARD\nFN:Three\nTEL:+447700900106\nEND:VCARD\n' + 'BEGIN:VCARD\nFN:Five\nTEL:+447700900107\nEND: VCARD\n' + lf('Six', '+447700900108'),
    );
    const run = await to.run(['contacts', 'import', to.at('mixed.vcf'), to.at('variants.vcf'), '--dry-run', '--rejects', to.at('rejects.vcf')]);
    expect(run).toMatchObject({
      code: 1,
      stderr: '',
      stdout: `would create 7, already present 0, invalid 1\n  variants.vcf card at line 6: BEGIN:VCARD is indented: a line that begins with a space or a tab goes on from the line before it (RFC 6350 folding), so nothing of the card can be read\nthe refused cards and rows are in ${to.at('rejects.vcf')}, as they were written\n`,
    });
    expect(readFileSync(to.at('rejects.vcf'), 'utf8')).toBe(indented);
  });

  it('a file cut short inside its last card (and inside a line of it): that card refused in tickbook\'s words, naming where it stops; the cards before it imported', async () => {
    const to = account();
    const whole = card('Ann', '+447700900021') + card('Bob', '+447700900022');
    // The third card stops in the middle of its TEL's parameters, as a copy cut off would.
    writeFileSync(to.at('cut.vcf'), `${whole}BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cy\r\nTEL;TYPE=CE`);
    const run = await to.run(['contacts', 'import', to.at('cut.vcf')]);
    expect(run).toMatchObject({
      code: 1,
      stderr: '',
      stdout: 'created 2, already present 0, invalid 1\n  cut.vcf card at line 11: it has no END:VCARD before the file ends, at line 14, its last line cut off: "TEL;TYPE=CE" (is the file cut short?)\n',
    });
    expect(await to.count()).toBe(2);
  });

  it('a CSV row over 1 MiB whose quote closes is refused alone; an unclosed quote refuses the file whole, naming its row and line, nothing created', async () => {
    const to = account();
    const big = `"${'long notes, '.repeat(Math.ceil((1.5 * MB) / 12))}"`;
    writeFileSync(to.at('big.csv'), `name,phone,notes\r\nAda,+447700900011,short\r\nBig,+447700900012,${big}\r\nCy,+447700900013,"two\r\nlines"\r\n`);
    writeFileSync(to.at('open.csv'), `name,phone,notes\r\n${goodRows(3)}Open,+447700900014,"never closed\r\n${goodRows(30_000, 100)}`);
    const [bigRun, openRun] = await Promise.all([to.run(['contacts', 'import', to.at('big.csv')]), to.run(['contacts', 'import', to.at('open.csv')])]);
    expect(bigRun).toMatchObject({
      code: 1,
      stderr: '',
      stdout: 'created 2, already present 0, invalid 1\n  big.csv row 3: larger than 1 MiB, the limit for a row: left out, and not written to the rejects file (split it, or shorten its largest values)\n',
    });
    expect(openRun).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `tickbook: ${to.at('open.csv')} row 5: the quote opened at line 5 is never closed, so the rest of the file would be one cell: close it (or double it, "") and import again\n`,
    });
    expect(await to.count()).toBe(2);
  });

  it('1,500 refusals: the report names the first 1,000 and counts all (text and --json); the rejects file has every one', async () => {
    const to = account();
    writeFileSync(to.at('refused.csv'), refusedRows(1500));
    const [text, json] = await Promise.all([
      to.run(['contacts', 'import', to.at('refused.csv'), '--rejects', to.at('rejects.csv')]),
      to.run(['contacts', 'import', to.at('refused.csv'), '--json']),
    ]);
    expect(text).toMatchObject({ code: 1, stderr: '' });
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('created 0, already present 0, invalid 1500');
    expect(lines.slice(1, 1001)).toEqual(Array.from({ length: 1000 }, (_, i) => `  refused.csv row ${i + 2}: no phone number`));
    expect(lines.slice(1001)).toEqual([
      '  … and 500 more refused, not listed here (the first 1,000 of each kind are)',
      `the refused cards and rows are in ${to.at('rejects.csv')}, as they were written`,
    ]);
    expect(readFileSync(to.at('rejects.csv'), 'utf8')).toBe(refusedRows(1500));
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { invalid: { where: string }[]; invalid_count: number; failed: unknown[]; failed_count: number };
    expect(report.invalid).toHaveLength(1000);
    expect(report.invalid.at(-1)).toEqual({ where: 'refused.csv row 1001', field: 'phone', reason: 'no phone number' });
    expect(report).toMatchObject({ invalid_count: 1500, failed: [], failed_count: 0, created: 0 });

    const bare = await to.run(['contacts', 'import', to.at('refused.csv')]);
    expect(bare.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      '  … and 500 more refused, not listed here (the first 1,000 of each kind are)',
      'give --rejects FILE to have every refused card and row written to FILE',
    ]);
  });
});
