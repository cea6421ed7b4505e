// What a screen reader would say over a minute of ticking, no key pressed, default settings: the
// text the terminal is sent, spoken by espeak-ng into a WAV, its length in seconds. The baseline,
// in the same run, is the drawn dashboard, whose every tick a reader reading the terminal in order
// would speak. The figure to hold: the reader's speech is its first screen (the greeting, the
// page, the contact selected) and then nothing; the drawn dashboard's grows with every tick.
//   npm run bench:listen              BENCH_SECONDS=60 (the minute), BENCH_RECORD=1 records the figures
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { againstRecorded, type Figures, record } from './recorded.js';

const BIN = fileURLToPath(new URL('../../bin/tickbook', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** The first screen is said within this; what comes after it is what ticks made said. */
const FIRST_SCREEN_MS = 8000;
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

if (spawnSync('espeak-ng', ['--version']).status !== 0) {
  process.stderr.write('bench:listen needs espeak-ng (Debian: apt-get install espeak-ng)\n');
  process.exit(1);
}

interface Heard {
  /** Everything the terminal was sent, and the part of it after the first screen. */
  all: string;
  afterFirst: string;
}

/** Runs the dashboard in a 120×40 pty for SECONDS on a fresh home, and quits it. */
async function listen(args: readonly string[]): Promise<Heard> {
  const home = mkdtempSync(join(tmpdir(), 'tickbook-listen-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache'), TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  delete env.CI;
  const command = `stty cols 120 rows 40; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const started = performance.now();
  let all = '';
  let afterFirst = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    all += chunk;
    if (performance.now() - started > FIRST_SCREEN_MS) afterFirst += chunk;
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  // What quitting says is not the minute's.
  const heard = { all, afterFirst };
  child.stdin.write('q');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
  rmSync(home, { recursive: true, force: true });
  return heard;
}

/** Seconds of speech espeak-ng makes of `text`, at its default voice and rate. */
function speechSeconds(text: string): number {
  if (text.trim() === '') return 0;
  const dir = mkdtempSync(join(tmpdir(), 'tickbook-espeak-'));
  try {
    writeFileSync(join(dir, 'text.txt'), text);
    execFileSync('espeak-ng', ['-w', join(dir, 'speech.wav'), '-f', join(dir, 'text.txt')], { stdio: 'ignore', maxBuffer: 1 << 30 });
    const wav = readFileSync(join(dir, 'speech.wav'));
    // RIFF: the fmt chunk's byte rate, then the data chunk's size (espeak-ng writes 0xffffffff
    // there when it streams: the file's own length then says it).
    const byteRate = wav.readUInt32LE(28);
    const dataAt = wav.indexOf('data', 12, 'latin1');
    const declared = wav.readUInt32LE(dataAt + 4);
    const size = declared === 0xffffffff || declared > wav.length ? wav.length - dataAt - 8 : declared;
    return size / byteRate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const spoken = (bytes: string): string => stripVTControlCharacters(bytes);

const reader = await listen(['--screen-reader']);
const drawn = await listen([]);
const figures: Record<string, Figures> = {};
const lines = [`bench:listen: ${SECONDS} s of ticking, no key pressed, default settings, 120x40, spoken by espeak-ng ${/\d+\.\d+(\.\d+)?/.exec(execFileSync('espeak-ng', ['--version'], { encoding: 'utf8' }))?.[0] ?? ''}`];
for (const [name, heard] of [['reader', reader], ['drawn', drawn]] as const) {
  const text = spoken(heard.all);
  const seconds = speechSeconds(text);
  const after = speechSeconds(spoken(heard.afterFirst));
  figures[name] = { speech_s: Math.round(seconds * 10) / 10, after_first_screen_s: Math.round(after * 10) / 10, characters: text.length };
  lines.push(`  ${name === 'reader' ? '--screen-reader' : 'drawn (baseline)'}: ${text.length} characters, ${seconds.toFixed(1)} s of speech, ${after.toFixed(1)} s of it after the first ${FIRST_SCREEN_MS / 1000} s`);
}
const ratio = figures.reader!.speech_s! / figures.drawn!.speech_s!;
lines.push(`  the reader's speech is ${ratio.toFixed(3)}x the drawn dashboard's`);
lines.push(...againstRecorded('listening', figures));
if (process.env.BENCH_RECORD === '1') record('listening', figures);
process.stdout.write(`${lines.join('\n')}\n`);
