// The import benchmark: `tickbook contacts import` into `tickbook serve` in its own process, its
// time and peak RSS (VmHWM) for hostile files of BENCH_IMPORT_MB (300) MB each, beside a normal
// file of 10,000 contacts in the same run: an unclosed CSV quote near the start (refused whole by
// the check, which reads it all), a vCard never ended (BEGIN:VCARD, then lines to the end), 500,000
// rows that are all refused, written to --rejects, and a CSV row that is one line to the end of the
// file. Memory must not grow with the file: the target is each hostile import's peak RSS within
// 50 MB of the normal import's. The files are made in a temp directory, one at a time, and removed.
// Then 1,500 rows into `tickbook serve --rate-limit 200`: the import waits out each 429 and
// finishes in one run (its time beside the least the limit allows, 1,500 / 200 s).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processMeter } from './measure-process.js';
import { startServeProcess } from './serve-process.js';

const TOKEN = 'bench-import-token-0123456789';
const API_KEY = 'bench-import-key-0123456789';
// BENCH_IMPORT_BIN: another build's bin/tickbook (an older commit's, for the figures before a change).
const bin = process.env.BENCH_IMPORT_BIN ?? new URL('../../bin/tickbook', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tickbook-bench-import-'));
const measure = processMeter(dir);
const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_IMPORT_MB ?? 300) * MB;

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A file of `head`, then `unit` over and over to about `size` bytes, then `tail`; written a few MB at a time. */
function makeFile(name: string, head: string, unit: (i: number) => string, size: number, tail = '', count = Number.POSITIVE_INFINITY): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    let written = Buffer.byteLength(head);
    let i = 0;
    while (written < size && i < count) {
      const block: string[] = [];
      let length = 0;
      while (length < 4 * MB && written + length < size && i < count) {
        const text = unit(i++);
        block.push(text);
        length += Buffer.byteLength(text);
      }
      writeSync(fd, block.join(''));
      written += length;
    }
    writeSync(fd, tail);
  } finally {
    closeSync(fd);
  }
  return path;
}

const phone = (i: number) => `+4477${String(10_000_000 + i).slice(-8)}`;
const env = (url: string): NodeJS.ProcessEnv => {
  const home = join(dir, 'home');
  const e: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), TICKBOOK_BASE_URL: url, TICKBOOK_TOKEN: TOKEN, TICKBOOK_API_KEY: API_KEY };
  delete e.CI;
  delete e.NODE_OPTIONS;
  return e;
};

interface Case {
  name: string;
  make: () => string;
  args?: (file: string) => string[];
}

const NOTES = 'notes that make the row as long as a real one with an address and a few remarks; '.repeat(8);

const CASES: Case[] = [
  {
    name: 'an unclosed CSV quote at row 5 (refused whole by the check)',
    make: () => makeFile('unclosed.csv', `name,phone,notes\r\nA,${phone(1)},x\r\nB,${phone(2)},x\r\nC,${phone(3)},x\r\nOpen,${phone(4)},"never closed\r\n`, (i) => `Row ${i},${phone(i)},${NOTES}\r\n`, SIZE),
  },
  {
    name: 'a vCard never ended (one card, then lines to the end)',
    make: () => makeFile('unended.vcf', `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Good\r\nTEL:${phone(9)}\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Never Ended\r\n`, (i) => `NOTE:line ${i} of a card that never ends, folded as vCards are\r\n`, SIZE),
  },
  {
    name: '500,000 refused rows, every one to --rejects',
    // Each row SIZE / 500,000 bytes long (cut down): 500,000 of them, whatever the size.
    make: () => makeFile('refused.csv', 'name,phone,notes\r\n', (i) => `Nobody ${i},,${NOTES}`.slice(0, Math.floor(SIZE / 500_000) - 2).concat('\r\n'), SIZE, '', 500_000),
    args: (file) => [file, '--rejects', join(dir, 'rejects.csv')],
  },
  {
    name: 'a CSV row that is one line to the end of the file (refused alone)',
    make: () => makeFile('one-line.csv', `name,phone,notes\r\nA,${phone(5)},x\r\nLong,${phone(6)},`, () => 'x'.repeat(64 * 1024), SIZE),
  },
];

const RATE_ROWS = 1500;
const RATE_LIMIT = 200;

/** RATE_ROWS new people imported into a serve of its own limited to RATE_LIMIT requests a second. */
async function rateLimited(): Promise<{ ms: number; peakKb: number; said: string; refused: number }> {
  const server = await startServeProcess(dir, join(dir, 'rate.db'), TOKEN, API_KEY, ['--rate-limit', String(RATE_LIMIT)]);
  try {
    const file = makeFile('rate.csv', 'name,phone\r\n', (i) => `Paced ${i},${phone(200_000 + i)}\r\n`, Number.POSITIVE_INFINITY, '', RATE_ROWS);
    const run = await measure(bin, ['contacts', 'import', file], env(server.url));
    const log = readFileSync(join(dir, `server-ratelimit${RATE_LIMIT}.log`), 'utf8');
    return { ms: run.ms, peakKb: run.peakKb, said: `exit ${run.code}: ${run.stdout.trim().split('\n')[0]}`, refused: (log.match(/ 429 /g) ?? []).length };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const wall = performance.now();
  const server = await startServeProcess(dir, join(dir, 'import.db'), TOKEN, API_KEY);
  const rows: { name: string; size: number; ms: number; peakKb: number; said: string }[] = [];
  try {
    const floor = await measure(bin, ['--version'], env(server.url));
    for (const c of CASES) {
      const file = c.make();
      const size = statSync(file).size;
      const run = await measure(bin, ['contacts', 'import', ...(c.args ? c.args(file) : [file])], env(server.url));
      const rejects = c.args ? `; --rejects ${(statSync(join(dir, 'rejects.csv')).size / MB).toFixed(1)} MB` : '';
      const said = `exit ${run.code}: ${(run.stdout.split('\n')[0] || run.stderr.trim()).replace(`${dir}/`, '').slice(0, 150)}${rejects}`;
      rows.push({ name: c.name, size, ms: run.ms, peakKb: run.peakKb, said });
      rmSync(file);
      rmSync(join(dir, 'rejects.csv'), { force: true });
    }
    // The normal file last: its 10,000 contacts are then not read first by the hostile imports.
    const normal = makeFile('normal.csv', 'name,phone\r\n', (i) => `Person ${i},${phone(100_000 + i)}\r\n`, 0, Array.from({ length: 10_000 }, (_, i) => `Person ${i},${phone(100_000 + i)}\r\n`).join(''));
    const run = await measure(bin, ['contacts', 'import', normal], env(server.url));
    if (run.code !== 0) throw new Error(`the normal import exited ${run.code}: ${run.stdout}${run.stderr}`);
    const base = { name: 'normal: 10,000 contacts, every one created', size: statSync(normal).size, ms: run.ms, peakKb: run.peakKb, said: `exit 0: ${run.stdout.trim()}` };
    console.log(`${bin} contacts import into tickbook serve (its own process); the CLI's start alone (--version) ${mb(floor.peakKb)}:`);
    for (const row of [base, ...rows]) {
      console.log(`  ${row.name}`);
      console.log(`    ${(row.size / MB).toFixed(1)} MB, ${s(row.ms)}, peak RSS ${mb(row.peakKb)}   (${row.said})`);
    }
    const worst = Math.max(...rows.map((r) => r.peakKb));
    const limited = await rateLimited();
    console.log(`  ${RATE_ROWS.toLocaleString('en-US')} rows into tickbook serve --rate-limit ${RATE_LIMIT} (429s: ${limited.refused})`);
    console.log(`    ${s(limited.ms)} (the limit allows no less than ${s((RATE_ROWS / RATE_LIMIT) * 1000)}), peak RSS ${mb(limited.peakKb)}   (${limited.said})`);
    console.log('targets:');
    console.log(`  every hostile file's peak RSS within 50 MB of the normal import's (${mb(base.peakKb)}): worst ${mb(worst)}  ${worst - base.peakKb < 50 * 1024 ? 'met' : 'MISSED'}`);
    console.log(`  the rate-limited import finishes in one run, every row created: ${limited.said.startsWith(`exit 0: created ${RATE_ROWS},`) ? 'met' : 'MISSED'}`);
    console.log(`whole bench ${s(performance.now() - wall)}`);
  } finally {
    await server.stop();
  }
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
