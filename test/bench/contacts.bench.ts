// The contacts benchmark: (a) the whole-list search a keystroke at a time over 10,000 and 100,000
// synthetic but realistic contacts (names of many scripts, accents, CJK, emoji; some without a
// display name), against a plain `includes` scan over the same folded strings in the same run;
// (b) `tickbook contacts import` of 10,000 vCards into `tickbook serve` in its own process: the
// time and the importing process's peak RSS (VmHWM), against a bare process POSTing the same
// contacts with undici at the importer's concurrency; (c) `tickbook contacts export` of 100,000
// contacts as vCard and CSV to a file, against a bare process paging the same list to a file;
// (d) a restore of 10,000 demo contacts (export, then import into an empty list, every contact
// checked), against the same contacts POSTed bare.
// Targets: a keystroke p95 < 5 ms at 10,000; the import's peak RSS < 200 MB.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ContactSearch, foldForSearch, type Searchable } from '../../src/contacts/search.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { processMeter } from './measure-process.js';
import { startServeProcess } from './serve-process.js';

const TOKEN = 'bench-contacts-token-0123456789';
const API_KEY = 'bench-contacts-key-0123456789';
const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'bin/tickbook');
const dir = mkdtempSync(join(tmpdir(), 'tickbook-bench-contacts-'));

const ms = (n: number) => `${n.toFixed(2)} ms`;
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;
const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

// ---------------------------------------------------------------------------------------------
// Synthetic people: first and last names from several languages (accents, letters of their own,
// CJK, Hangul, Greek, Cyrillic), an emoji after some names, some with no display name.

const FIRST = [
  'James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'Olivia', 'Noah', 'Amelia', 'Oliver',
  'José', 'María', 'Álvaro', 'Lucía', 'Sofía', 'Andrés', 'Inés', 'Ramón', 'Begoña', 'Iñaki',
  'François', 'Hélène', 'Jérôme', 'Chloé', 'Zoë', 'Anaïs', 'Gaël', 'Léa',
  'Jürgen', 'Jörg', 'Björn', 'Søren', 'Åsa', 'Mäkelä', 'Özlem', 'Çağla', 'Şebnem', 'İlkay',
  'Łukasz', 'Małgorzata', 'Wojciech', 'Zofia', 'Dušan', 'Jiří', 'Ágnes', 'Đorđe',
  'Nguyễn Văn', 'Trần Thị', 'Priya', 'Arjun', 'Aisha', 'Omar', 'Fatima', 'Yusuf',
  'Γιώργος', 'Ελένη', 'Дмитрий', 'Анна', 'Kwame', 'Chiamaka', 'Oluwaseun', 'Siobhán', 'Seán', 'Niamh',
];
const LAST = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Wilson', 'Taylor', 'Anderson', 'Thomas', 'Moore', 'Martin',
  'Álvarez-Núñez', 'Fernández', 'González', 'Muñoz', 'Peña', 'Ibáñez', 'Lefèvre', 'Dubois', 'Gauthier', 'Béranger',
  'Müller', 'Schröder', 'Weiß', 'Bjørnstad', 'Håkansson', 'Ångström', 'Wiśniewski', 'Kowalczyk', 'Dvořák', 'Novák', 'Horváth',
  'Yılmaz', 'Öztürk', 'Şahin', 'Nguyễn', 'Trần', 'Lê', 'Patel', 'Sharma', 'Khan', 'Hassan', 'Okafor', 'Mensah', "O'Brien", 'MacDonald',
  'Παπαδόπουλος', 'Иванов', 'Смирнова',
];
/** Whole names written in their own scripts (no space between family and given name). */
const CJK = ['李伟', '王芳', '张伟', '刘洋', '陈静', '杨帆', '佐藤健', '鈴木一郎', '高橋美咲', '田中花子', '김민준', '이서연', '박지훈', '최유진'];
const EMOJI = ['🏄', '🌸', '⚽', '🎸', '🇬🇧', '👩‍💻', '🐶', '☕'];

interface Person extends Searchable {
  displayName: string | null;
}

/** Country codes and the national numbers' length there (a mobile's, where they differ). */
const COUNTRY_LENGTHS: readonly (readonly [string, number])[] = [
  ['44', 10], ['1', 10], ['49', 11], ['33', 9], ['34', 9], ['48', 9], ['81', 10], ['86', 11], ['91', 10], ['61', 9],
];

/** `count` people, the same every run (a seeded generator). */
function people(count: number): Person[] {
  let x = 20_251_126;
  const rand = () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const out: Person[] = [];
  for (let i = 0; i < count; i++) {
    const cjk = rand() < 0.08;
    let name = cjk ? pick(CJK) : `${pick(FIRST)} ${pick(LAST)}`;
    if (rand() < 0.05) name += ` ${pick(EMOJI)}`;
    // A username from the name's ASCII letters (as people pick them), or the number for CJK.
    const ascii = name.normalize('NFKD').replace(/[^A-Za-z ]/g, '').trim().toLowerCase().replace(/ +/g, '.');
    const username = `${ascii || 'user'}${i}`.slice(0, 32);
    // A number of the length its country's numbers have, so that import takes it (a possible
    // number: see src/api/possible-phone.ts).
    const [country, digits] = pick(COUNTRY_LENGTHS);
    const phoneNumber = `+${country}${String(2 * 10 ** (digits - 1) + Math.floor(rand() * 7 * 10 ** (digits - 1)))}`;
    out.push({ id: `ct_${i}`, username, displayName: rand() < 0.07 ? null : name, phoneNumber });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// (a) A keystroke at a time.

/**
 * What a person types, a letter at a time: names as people type them (no accents), a CJK name, a
 * name nobody has, a number. `round` picks other people and texts, so that no query of one round
 * was searched in another (see timeEach).
 */
function typings(list: readonly Person[], round: 0 | 1): string[] {
  const from = round === 0 ? 0 : Math.floor(list.length / 2);
  const named = (test: (name: string) => boolean) => list.slice(from).find((p) => p.displayName !== null && test(p.displayName))!;
  const plainly = (name: string) => name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/ø/g, 'o').toLowerCase();
  const first = named((n) => n.startsWith(round === 0 ? 'José Álvarez' : 'François Lefèvre'));
  const second = named((n) => n.startsWith(round === 0 ? 'Łukasz' : 'Søren'));
  const cjk = named((n) => n.startsWith(round === 0 ? '高橋' : '김'));
  const any = list[Math.floor(list.length * (round === 0 ? 0.73 : 0.37))]!;
  return [
    plainly(first.displayName!).slice(0, 14),
    plainly(second.displayName!).slice(0, 12),
    // Nobody: a query that finds nothing still costs a search.
    round === 0 ? 'sarah connor' : 'ellen ripley',
    cjk.displayName!.slice(0, 3),
    plainly(any.displayName ?? any.username).slice(0, 10),
    `+${any.phoneNumber.slice(1, 3)} ${any.phoneNumber.slice(3, 6)} ${any.phoneNumber.slice(6, 10)}`,
  ];
}

/** Each prefix of each typing, as the queries a keystroke at a time makes. */
const keystrokes = (texts: readonly string[]): string[] => texts.flatMap((t) => [...t].map((_, i) => [...t].slice(0, i + 1).join('')).filter((q) => q.trim() !== ''));

/** The floor: a plain scan for the folded query in the folded name and username, and the digits in the number. */
class IncludesScan {
  readonly #names: string[];
  readonly #users: string[];
  readonly #digits: string[];
  constructor(list: readonly Person[]) {
    this.#names = list.map((p) => foldForSearch(p.displayName ?? p.username));
    this.#users = list.map((p) => foldForSearch(p.username));
    this.#digits = list.map((p) => p.phoneNumber.replace(/\D/g, ''));
  }
  search(query: string): number[] {
    const needle = foldForSearch(query.trim());
    const digits = query.replace(/[\s+\-.()]/g, '');
    const phone = /^\d+$/.test(digits);
    const found: number[] = [];
    for (let i = 0; i < this.#names.length; i++) {
      if (this.#names[i]!.includes(needle) || this.#users[i]!.includes(needle) || (phone && this.#digits[i]!.includes(digits))) found.push(i);
    }
    return found;
  }
}

/**
 * Each query's time. V8 keeps the regular expressions it compiled by their source, and uFuzzy
 * makes new ones for every new query: a query searched before in this process costs a fraction of
 * one typed for the first time, as every keystroke of a person's typing is. So the timed queries
 * are ones never searched before here, after a warm-up of others (the JIT's, not the patterns').
 */
function timeEach(queries: readonly string[], run: (q: string) => unknown): number[] {
  return queries.map((q) => {
    const started = performance.now();
    run(q);
    return performance.now() - started;
  });
}

const figures = (samples: number[]) => `p50 ${ms(percentile(samples, 50))}   p95 ${ms(percentile(samples, 95))}   max ${ms(Math.max(...samples))}`;

function searchBench(): { p95At10k: number } {
  let p95At10k = Number.NaN;
  console.log('(a) search, a keystroke at a time (display name, username, phone; uFuzzy, best 200 ranked):');
  for (const [round, count] of [[0, 10_000], [1, 100_000]] as const) {
    const list = people(count);
    let started = performance.now();
    const search = new ContactSearch(list);
    const build = performance.now() - started;
    started = performance.now();
    const scan = new IncludesScan(list);
    const scanBuild = performance.now() - started;
    const texts = typings(list, round);
    const queries = keystrokes(texts);
    // The warm-up: other people's names typed the same way, none of them a timed query.
    const timed = new Set(queries);
    const warm = keystrokes(list.slice(1000, 1030).map((p) => (p.displayName ?? p.username).toLowerCase().slice(0, 8))).filter((q) => !timed.has(q));
    for (const q of warm) {
      search.search(q);
      scan.search(q);
    }
    let found = 0;
    const fuzzy = timeEach(queries, (q) => (found += search.search(q).length));
    const again = timeEach(queries, (q) => search.search(q));
    const plain = timeEach(queries, (q) => scan.search(q));
    const p95 = percentile(fuzzy, 95);
    if (count === 10_000) p95At10k = p95;
    const slowest = queries[fuzzy.indexOf(Math.max(...fuzzy))]!;
    console.log(`  ${count.toLocaleString('en-US')} contacts, ${queries.length} keystrokes typing ${texts.map((t) => JSON.stringify(t)).join(', ')} (${found} matches in all), after ${warm.length} others:`);
    console.log(`    ContactSearch, each query new        ${figures(fuzzy)}   (slowest ${JSON.stringify(slowest)}; built in ${ms(build)}, again after each change)`);
    console.log(`    the same queries again (V8's cache)  ${figures(again)}`);
    console.log(`    baseline: includes scan              ${figures(plain)}   (folded in ${ms(scanBuild)})`);
  }
  return { p95At10k };
}

// ---------------------------------------------------------------------------------------------
// Processes, and their peak resident memory.

/** Runs `command args` (the bin as a user runs it, or node with a script), its time and peak RSS. */
const measure = processMeter(dir);

const cliEnv = (url: string, name: string): NodeJS.ProcessEnv => {
  const home = join(dir, name);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), TICKBOOK_BASE_URL: url, TICKBOOK_TOKEN: TOKEN, TICKBOOK_API_KEY: API_KEY };
  delete env.CI;
  delete env.NODE_OPTIONS;
  return env;
};

/** undici, as the CLI uses it, for the baselines' scripts (written outside the project, so by its path). */
const UNDICI = pathToFileURL(createRequire(import.meta.url).resolve('undici')).href;

/** A bare script for the baselines, run by node with the flag the bin gives it. */
function script(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function vcard(p: Person): string {
  const name = p.displayName ?? p.username;
  const escaped = name.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;');
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${escaped}`, `N:${escaped};;;;`, `TEL;TYPE=CELL:${p.phoneNumber}`, 'END:VCARD', ''].join('\r\n');
}

/**
 * The floor of an import: `people` POSTed four at a time with undici (as the CLI's client sends
 * them), by a process that checks nothing, into `token`'s list.
 */
async function rawPost(url: string, token: string, people: readonly (Pick<Person, 'username' | 'phoneNumber' | 'displayName'> & { avatarUrl?: string | null })[], name: string) {
  const poster = script(
    'raw-post.mjs',
    `import { readFileSync } from 'node:fs';
import { request } from '${UNDICI}';
const [url, token, path] = process.argv.slice(2);
const people = JSON.parse(readFileSync(path, 'utf8'));
let next = 0;
async function worker() {
  while (next < people.length) {
    const p = people[next++];
    const form = new URLSearchParams({ username: p.username, phone_number: p.phoneNumber, ...(p.displayName ? { display_name: p.displayName } : {}), ...(p.avatarUrl ? { avatar_url: p.avatarUrl } : {}) });
    const res = await request(url + '/v1/contacts', { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(res.statusCode + ' ' + text);
  }
}
await Promise.all([worker(), worker(), worker(), worker()]);
`,
  );
  const json = join(dir, `${name}.json`);
  writeFileSync(json, JSON.stringify(people));
  const raw = await measure(process.execPath, [poster, url, token, json], cliEnv(url, name));
  if (raw.code !== 0) throw new Error(`the raw poster exited ${raw.code}: ${raw.stderr}`);
  return raw;
}

async function importBench(floorKb: number): Promise<{ peakKb: number }> {
  const count = 10_000;
  const list = people(count);
  const file = join(dir, 'people.vcf');
  writeFileSync(file, list.map(vcard).join(''));
  const server = await startServeProcess(dir, join(dir, 'import.db'), TOKEN, API_KEY);
  // Another server for the baseline (its log in a directory of its own): the same empty start.
  const otherDir = join(dir, 'baseline-server');
  mkdirSync(otherDir);
  const other = await startServeProcess(otherDir, join(otherDir, 'import-baseline.db'), TOKEN, API_KEY);
  try {
    const run = await measure(bin, ['contacts', 'import', file], cliEnv(server.url, 'import'));
    if (run.code !== 0) throw new Error(`import exited ${run.code}: ${run.stdout}${run.stderr}`);
    // The floor: the same contacts POSTed four at a time with undici, by a process that checks nothing.
    const raw = await rawPost(other.url, TOKEN, list, 'raw-import');
    console.log(`(b) tickbook contacts import of ${count.toLocaleString('en-US')} vCards (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB) into tickbook serve in its own process:`);
    console.log(`    ${run.stdout.trim()}`);
    console.log(`    ${s(run.ms)} (${((count / run.ms) * 1000).toFixed(0)} contacts/s), peak RSS ${mb(run.peakKb)}`);
    console.log(`    baseline: undici POSTing the same contacts 4 at a time  ${s(raw.ms)}, peak RSS ${mb(raw.peakKb)}; the CLI's start alone (--version) ${mb(floorKb)}`);
    return { peakKb: run.peakKb };
  } finally {
    await server.stop();
    await other.stop();
  }
}

/** A contact as the API lists it, the fields a restore gives back. */
interface Listed {
  username: string;
  display_name: string | null;
  phone_number: string;
  avatar_url: string | null;
}

/** Every contact of `token`'s list, by username. */
async function listOf(url: string, token: string): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let after = ''; ; ) {
    const res = await fetch(`${url}/v1/contacts?limit=100${after}`, { headers: { authorization: `Bearer ${token}` } });
    const page = (await res.json()) as { has_more: boolean; data: (Listed & { id: string })[] };
    all.push(...page.data.map(({ username, display_name, phone_number, avatar_url }) => ({ username, display_name, phone_number, avatar_url })));
    if (!page.has_more) return all.sort((a, b) => (a.username < b.username ? -1 : 1));
    after = `&starting_after=${page.data.at(-1)!.id}`;
  }
}

/**
 * (d) A restore of 10,000 demo contacts (the 60 demo people again and again: 60 phone numbers),
 * as contacts-restore.test.ts does with 300: `tickbook serve --demo-contacts 10000` in its own
 * process, the list exported as vCard, imported into an empty list, every contact checked to
 * come back; against the same contacts POSTed bare into another empty list.
 */
async function restoreBench(): Promise<{ ms: number; peakKb: number }> {
  const count = 10_000;
  const here = join(dir, 'restore');
  mkdirSync(here);
  const [into, bare] = [`${TOKEN}-restore`, `${TOKEN}-bare`];
  const server = await startServeProcess(here, join(here, 'restore.db'), TOKEN, API_KEY, ['--demo-contacts', String(count), '--token', into, '--token', bare]);
  try {
    const file = join(here, 'demo.vcf');
    const exported = await measure(bin, ['contacts', 'export', '--output', file], cliEnv(server.url, 'restore-export'));
    if (exported.code !== 0) throw new Error(`export exited ${exported.code}: ${exported.stderr}`);
    const expected = await listOf(server.url, TOKEN);
    const numbers = new Set(expected.map((c) => c.phone_number)).size;
    const run = await measure(bin, ['contacts', 'import', file], { ...cliEnv(server.url, 'restore-import'), TICKBOOK_TOKEN: into });
    if (run.code !== 0 || !run.stdout.startsWith(`created ${count}, already present 0, invalid 0\n`)) throw new Error(`import exited ${run.code}: ${run.stdout}${run.stderr}`);
    const back = await listOf(server.url, into);
    if (JSON.stringify(back) !== JSON.stringify(expected)) throw new Error(`the restore did not give the ${count} contacts back: ${back.length} came back`);
    const raw = await rawPost(server.url, bare, expected.map((c) => ({ username: c.username, phoneNumber: c.phone_number, displayName: c.display_name, avatarUrl: c.avatar_url })), 'raw-restore');
    console.log(`(d) a restore of ${count.toLocaleString('en-US')} demo contacts (${numbers} phone numbers): exported as vCard (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB) in ${s(exported.ms)}, imported into an empty list:`);
    console.log(`    ${run.stdout.trim().split('\n').join('; ')}`);
    console.log(`    ${s(run.ms)} (${((count / run.ms) * 1000).toFixed(0)} contacts/s), peak RSS ${mb(run.peakKb)}; every contact came back`);
    console.log(`    baseline: undici POSTing the same contacts 4 at a time  ${s(raw.ms)}, peak RSS ${mb(raw.peakKb)}`);
    return { ms: run.ms, peakKb: run.peakKb };
  } finally {
    await server.stop();
  }
}

async function exportBench(floorKb: number): Promise<{ peaks: Record<string, number> }> {
  const count = 100_000;
  const dbPath = join(dir, 'export.db');
  const nowS = Math.floor(Date.now() / 1000);
  let started = performance.now();
  const store = openContactsStore(dbPath);
  try {
    const seeds: SeedContact[] = people(count).map((p, i) => ({
      username: p.username,
      phoneNumber: p.phoneNumber,
      displayName: p.displayName,
      avatarUrl: i % 10 === 0 ? `https://avatars.example/${i}.png` : null,
      createdAt: nowS - i,
      lastActiveAt: i % 3 === 0 ? nowS - i : null,
    }));
    store.insertMany(ownerOf(TOKEN), seeds);
  } finally {
    store.close();
  }
  const fill = performance.now() - started;
  const server = await startServeProcess(dir, dbPath, TOKEN, API_KEY);
  const peaks: Record<string, number> = {};
  try {
    console.log(`(c) tickbook contacts export of ${count.toLocaleString('en-US')} contacts to a file (filled straight into the sandbox's store in ${s(fill)}):`);
    for (const format of ['vcf', 'csv'] as const) {
      const output = join(dir, `export.${format}`);
      started = performance.now();
      const run = await measure(bin, ['contacts', 'export', '--format', format, '--output', output], cliEnv(server.url, `export-${format}`));
      if (run.code !== 0 || !run.stderr.includes(`exported ${count} contacts`)) throw new Error(`export exited ${run.code}: ${run.stderr}`);
      peaks[format] = run.peakKb;
      console.log(`    ${format}: ${s(run.ms)} (${((count / run.ms) * 1000).toFixed(0)} contacts/s), ${(statSync(output).size / 1024 / 1024).toFixed(1)} MB written, peak RSS ${mb(run.peakKb)}`);
    }
    // The floor: a bare process reading every page of 100 and writing each page's JSON to a file.
    const pager = script(
      'raw-pages.mjs',
      `import { createWriteStream } from 'node:fs';
import { request } from '${UNDICI}';
const [url, token, path] = process.argv.slice(2);
const out = createWriteStream(path);
let after;
let n = 0;
for (;;) {
  const res = await request(url + '/v1/contacts?limit=100' + (after ? '&starting_after=' + after : ''), { headers: { authorization: 'Bearer ' + token } });
  const page = await res.body.json();
  for (const c of page.data) if (!out.write(JSON.stringify(c) + '\\n')) await new Promise((r) => out.once('drain', r));
  n += page.data.length;
  if (!page.has_more) break;
  after = page.data.at(-1).id;
}
await new Promise((r) => out.end(r));
if (n !== ${count}) throw new Error('read ' + n);
`,
    );
    const raw = await measure(process.execPath, [pager, server.url, TOKEN, join(dir, 'raw.ndjson')], cliEnv(server.url, 'raw-export'));
    if (raw.code !== 0) throw new Error(`the raw pager exited ${raw.code}: ${raw.stderr}`);
    console.log(`    baseline: undici paging the same list (100 a page) to NDJSON  ${s(raw.ms)}, peak RSS ${mb(raw.peakKb)}; the CLI's start alone ${mb(floorKb)}`);
  } finally {
    await server.stop();
  }
  return { peaks };
}

async function main(): Promise<void> {
  const wall = performance.now();
  const { p95At10k } = searchBench();
  const floor = await measure(bin, ['--version'], cliEnv('http://127.0.0.1:9', 'floor'));
  const { peakKb } = await importBench(floor.peakKb);
  const { peaks } = await exportBench(floor.peakKb);
  const restore = await restoreBench();
  console.log('targets:');
  console.log(`  search p95 per keystroke < 5 ms at 10,000 contacts: ${ms(p95At10k)}  ${verdict(p95At10k < 5)}`);
  console.log(`  import of 10,000 vCards, peak RSS < 200 MB: ${mb(peakKb)}  ${verdict(peakKb < 200 * 1024)}`);
  console.log(`  (export of 100,000 has no target: vcf ${mb(peaks.vcf!)}, csv ${mb(peaks.csv!)} peak RSS, against the list paged bare above)`);
  console.log(`  (the restore of 10,000 demo contacts has none either: ${s(restore.ms)}, peak RSS ${mb(restore.peakKb)}, against the bare POSTs above)`);
  console.log(`whole bench ${s(performance.now() - wall)}`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
