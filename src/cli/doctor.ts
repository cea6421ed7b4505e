// `tickbook doctor`: checks what tickbook depends on and says what it found, one line each, so
// that a setup that does not work says why before the dashboard is tried. Exit 0 when all is well.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { screenReaderWanted } from '../text/screen-reader.js';
import { fsReason } from '../config/fs-reason.js';
import { sqliteProblem } from '../sqlite/problems.js';
import { databaseFileAt } from '../sqlite/database-file.js';
import { ApiError } from '../api/errors.js';
import { ConfigError, type ConfigFile, configFilePath, type ConfigRead, readConfigFile } from '../config/config-file.js';
import { defaultDatabasePath } from '../config/paths.js';
import { historyPath } from '../store/history-source.js';
import { localeIsUtf8 } from '../text/locale.js';
import { sanitize } from '../text/sanitize.js';
import { CONNECTION_HELP } from './connection-options.js';
import { CONNECTION_OPTIONS } from './options.js';
import { parseCommandLine, UsageError } from './usage.js';
import { withClient } from './with-client.js';
import { probeTerminal } from './terminal-probe.js';

export const DOCTOR_HELP = `Usage: tickbook doctor [connection options]

Checks, one line each (✓ well, ✗ not, · only so you know; with --screen-reader ok:, problem:,
note:), and exits 0 when nothing is wrong:
  node                      the version running tickbook (22.19 or later)
  terminal                  its size against the dashboard's smallest (60x16), colours, and
                            whether it draws Unicode
  widths                    the terminal asked how wide it draws the dashboard's characters, an
                            emoji and a CJK one: as wide as the dashboard counts them
  mouse                     whether the dashboard reads the mouse, and whether the terminal
                            says it knows the reports' SGR form
  config                    the config file: readable JSON, no unknown or malformed key, not
                            readable by others when it holds credentials
  history, sandbox          the local SQLite files: SQLite's own integrity check (nothing in
                            them changed); one that is not a regular file is named, not opened
  contacts, market data     where tickbook would connect, whether it answers and how fast, and
                            whether the token and API key are accepted (with no server set up,
                            the embedded sandbox, made if need be as any command makes it)
  clock                     this machine's clock against the server's

${CONNECTION_HELP}`;

/** Node's oldest version tickbook runs on (package.json's engines). */
const NODE_MIN = [22, 19] as const;
/** How long a file another process holds locked is waited for. */
const BUSY_MS = 2_000;
/** A server's clock this far from ours makes prices' times and alerts' "stale" wrong. */
const CLOCK_SKEW_MS = 5_000;

type Verdict = 'ok' | 'bad' | 'info';

export interface Finding {
  what: string;
  verdict: Verdict;
  detail: string;
}

const ok = (what: string, detail: string): Finding => ({ what, verdict: 'ok', detail });
const bad = (what: string, detail: string): Finding => ({ what, verdict: 'bad', detail });
const info = (what: string, detail: string): Finding => ({ what, verdict: 'info', detail });

export async function doctor(args: readonly string[]): Promise<number> {
  const { values } = parseCommandLine(args, CONNECTION_OPTIONS, false);
  if (values.help) {
    process.stdout.write(DOCTOR_HELP);
    return 0;
  }
  const settings = readSettings();
  const findings: Finding[] = [
    nodeVersion(),
    await terminal(settings.config),
    ...(await asked(settings.config)),
    configFinding(settings),
    ...(await databases()),
    ...(await connection(values)),
  ];
  const marks = screenReaderWanted(process.env, values['screen-reader'])
    ? { ok: 'ok:', bad: 'problem:', info: 'note:' }
    : localeIsUtf8(process.env)
      ? { ok: '✓', bad: '✗', info: '·' }
      : { ok: 'ok', bad: 'NO', info: '--' };
  const width = Math.max(...findings.map((f) => f.what.length));
  for (const finding of findings) {
    process.stdout.write(`${marks[finding.verdict].padEnd(2)} ${finding.what.padEnd(width)}  ${sanitize(finding.detail)}\n`);
  }
  return findings.some((f) => f.verdict === 'bad') ? 1 : 0;
}

function nodeVersion(): Finding {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const enough = major > NODE_MIN[0] || (major === NODE_MIN[0] && minor >= NODE_MIN[1]);
  const detail = `${process.version} (${process.execPath})`;
  return enough ? ok('node', detail) : bad('node', `${detail}: tickbook needs ${NODE_MIN.join('.')} or later`);
}

/** The config file, read once for the config line and the terminal's settings. */
interface Settings {
  path: string;
  config: ConfigFile;
  read?: ConfigRead;
  error?: unknown;
}

function readSettings(): Settings {
  const path = configFilePath();
  try {
    const read = readConfigFile(path);
    return { path, config: read.config, read };
  } catch (error) {
    return { path, config: {}, error };
  }
}

/** The terminal as the dashboard will draw on it: its own colour and glyph choices, its smallest size. */
async function terminal(config: ConfigFile): Promise<Finding> {
  // The dashboard's modules (React with them) load only for this line, not for every command.
  const [{ colorsFor }, { glyphsFor }, { MIN_COLUMNS, MIN_ROWS }] = await Promise.all([
    import('../tui/style/theme.js'),
    import('../tui/style/glyphs.js'),
    import('../tui/terminal/terminal-size.js'),
  ]);
  const term = process.env.TERM ?? '(TERM not set)';
  const drawing = glyphsFor(process.env, config.glyphs).unicode ? 'Unicode' : 'ASCII only (the locale is not UTF-8, or the terminal draws none)';
  const colours = colorsFor(process.env, config.colors);
  const colour = colours === 'none' ? 'no colour' : colours === '16' ? '8 colours' : '256 colours';
  if (!process.stdout.isTTY) return info('terminal', `standard output is not a terminal: run tickbook doctor in the terminal you use; TERM=${term}, ${drawing}`);
  if (term === 'dumb') return bad('terminal', 'TERM=dumb: the dashboard cannot draw on it (the commands work)');
  const { columns = 0, rows = 0 } = process.stdout;
  const detail = `${columns}x${rows}, TERM=${term}, ${colour}, ${drawing}`;
  const fits = columns >= MIN_COLUMNS && rows >= MIN_ROWS;
  return fits ? ok('terminal', detail) : bad('terminal', `${detail}: the dashboard needs at least ${MIN_COLUMNS}x${MIN_ROWS}`);
}

/** Characters the dashboard draws, an emoji and a CJK character as names carry them. */
export const EMOJI = '📚';
export const CJK = '田';

/** The widths the terminal drew against those the dashboard counts (`counted`). */
export function widthsFinding(drawn: ReadonlyMap<string, number>, counted: (char: string) => number): Finding {
  const wrong = [...drawn].filter(([char, columns]) => columns !== counted(char)).map(([char]) => char);
  const said = (char: string) => `${char} ${drawn.get(char)} columns wide (the dashboard counts ${counted(char)})`;
  if (drawn.size === 0) return info('widths', 'the terminal did not say where its cursor is: widths not checked');
  if (wrong.length === 0) return ok('widths', `every character checked (${drawn.size}, an emoji and a CJK one among them) as wide as the dashboard counts it`);
  const own = wrong.filter((char) => char !== EMOJI && char !== CJK);
  const advice = own.length > 0 ? 'lines will not line up: set "glyphs": "ascii", or use a terminal or font with the usual widths' : 'names with emoji or CJK characters will not line up';
  return bad('widths', `the terminal draws ${wrong.map(said).join(', ')}: ${advice}`);
}

/** What the terminal says of itself: the widths it draws, whether it knows SGR mouse reports. */
async function asked(config: ConfigFile): Promise<Finding[]> {
  const [{ glyphsFor, UNICODE }, { mouseAtStart }, { width }] = await Promise.all([import('../tui/style/glyphs.js'), import('../tui/mouse/mouse-setting.js'), import('../text/width.js')]);
  const mouse = mouseAtStart(process.env, config.mouse);
  const reading = mouse.on ? 'the dashboard reads clicks and the wheel (O turns it off; Shift+drag selects meanwhile)' : `left to the terminal: ${mouse.reason} (O turns it on)`;
  const unicode = glyphsFor(process.env, config.glyphs).unicode;
  const chars = [
    ...new Set([UNICODE.ellipsis, UNICODE.dot, UNICODE.focusMarker, UNICODE.pointer, UNICODE.edit, UNICODE.check, UNICODE.cross, UNICODE.up, UNICODE.down, UNICODE.bars.at(-1)!, UNICODE.spinner[0]!, '─', '│', '┃', '╭'].map((glyph) => glyph.trim())),
    EMOJI,
    CJK,
  ];
  const answers = process.env.TERM === 'dumb' ? undefined : await probeTerminal(process.stdin, process.stdout, unicode ? chars : []);
  if (!answers) return [info('mouse', reading)];
  const findings: Finding[] = [];
  if (unicode) findings.push(widthsFinding(answers.widths, width));
  const sgr = answers.sgrMouse === undefined ? 'the terminal did not say if it knows SGR reports (most do)' : answers.sgrMouse ? 'the terminal knows SGR reports' : 'the terminal knows no SGR reports: clicks past column 223 are lost';
  findings.push((mouse.on && answers.sgrMouse !== false ? ok : info)('mouse', `${reading}; ${sgr}`));
  return findings;
}

function configFinding({ path, read, error }: Settings): Finding {
  if (error !== undefined) return bad('config', error instanceof ConfigError ? error.message : String(error));
  if (!existsSync(path)) return info('config', `${path} does not exist: every setting is its default`);
  if (read!.warnings.length > 0) return bad('config', read!.warnings.join('; '));
  return ok('config', path);
}

/**
 * SQLite's quick_check of each local file tickbook keeps. Opened as SQLite alone (no schema
 * upgrade, nothing written), read-write where it may be so that closing the last connection
 * takes away the -wal and -shm files the open made, as every command's does; read-only else.
 */
async function databases(): Promise<Finding[]> {
  const { default: Database } = await import('better-sqlite3');
  return [
    ['history', historyPath()],
    ['sandbox', defaultDatabasePath()],
  ].map(([what, path]) => {
    // A FIFO would block the reading of its first bytes for ever: only a regular file is opened.
    let file;
    try {
      file = databaseFileAt(path!, (reason) => new Error(reason));
    } catch (error) {
      return bad(what!, `${path}: ${(error as Error).message}`);
    }
    if (file === undefined) return info(what!, `${path} does not exist yet`);
    let db;
    try {
      if (!isSqliteFile(path!)) return bad(what!, `${path} is not a SQLite database`);
      try {
        db = new Database(path!, { fileMustExist: true });
      } catch {
        db = new Database(path!, { readonly: true, fileMustExist: true });
      }
      db.pragma(`busy_timeout = ${BUSY_MS}`);
      const result = (db.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
      return result.length === 1 && result[0] === 'ok' ? ok(what!, `${path}: intact`) : bad(what!, `${path}: ${result.slice(0, 3).join('; ')}`);
    } catch (error) {
      return bad(what!, `${path}: ${sqliteProblem(error, BUSY_MS, path) ?? fsReason(error)}`);
    } finally {
      db?.close();
    }
  });
}

/** Whether the file starts as every SQLite database does (its first 16 bytes only are read). */
function isSqliteFile(path: string): boolean {
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === 'SQLite format 3\u0000';
  } finally {
    closeSync(fd);
  }
}

/** Asks the servers it would use (the embedded sandbox, or the configured ones) and times them. */
async function connection(values: Parameters<typeof withClient>[0]): Promise<Finding[]> {
  try {
    return await withClient(values, async ({ client, target, sandbox }) => {
      const findings: Finding[] = [];
      let started = performance.now();
      try {
        await client.listContacts({ limit: 1 });
        findings.push(ok('contacts', `${target} answers, the token is accepted (${(performance.now() - started).toFixed(0)} ms)`));
      } catch (error) {
        findings.push(bad('contacts', `${target}: ${describe(error)}`));
      }
      started = performance.now();
      try {
        const priced = await client.realtimePricing(['AAPL']);
        findings.push(ok('market data', `answers, the API key is accepted (${(performance.now() - started).toFixed(0)} ms)`));
        findings.push(clock(priced, sandbox !== undefined));
      } catch (error) {
        findings.push(bad('market data', describe(error)));
        findings.push(info('clock', `not compared: the market data server did not answer; this machine says ${new Date().toISOString()}`));
      }
      return findings;
    }, { onWarning: () => undefined });
  } catch (error) {
    // Where to connect comes partly from the config file: a broken one is said once, above.
    const cause = error instanceof UsageError && /invalid JSON|not UTF-8|must be/.test(error.message) ? 'not checked: where to connect is in the config file, which cannot be read (above)' : describe(error);
    return [bad('connection', cause)];
  }
}

function clock(priced: { requestTime: Date; serverTime?: boolean | undefined }, local: boolean): Finding {
  if (local) return ok('clock', `${new Date().toISOString()} (the sandbox runs on this machine's clock)`);
  if (priced.serverTime !== true) return info('clock', `not compared: the server's answer carries no request_time; this machine says ${new Date().toISOString()}`);
  const serverTime = priced.requestTime;
  const skew = Date.now() - serverTime.getTime();
  const detail = `this machine ${new Date().toISOString()}, the server ${serverTime.toISOString()}`;
  return Math.abs(skew) <= CLOCK_SKEW_MS ? ok('clock', detail) : bad('clock', `${detail}: ${(Math.abs(skew) / 1000).toFixed(0)} s ${skew > 0 ? 'ahead' : 'behind'}; set the clock (NTP)`);
}

const describe = (error: unknown): string => (error instanceof ApiError ? error.describe() : (error as Error)?.message ?? String(error));
