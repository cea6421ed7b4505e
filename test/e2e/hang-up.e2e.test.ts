// Closing the terminal under the dashboard: the delete waiting out its undo window is sent, the
// database is closed, and nothing is printed (before: an unhandled EIO, then Node's native
// assertion in ResetStdio). Both ways a terminal goes: SIGHUP (the pane's session is killed) and,
// for a process the kernel does not signal (another session), EIO on its next write or read.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/child.js';
import { BIN, hasTmux } from '../helpers/tmux.js';

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!hasTmux())('closing the terminal under the dashboard', () => {
  let home: string;
  let env: Record<string, string>;
  let socket: string;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-hangup-'));
    env = { LANG: 'C.UTF-8', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
    socket = `tickbook-hangup-${process.pid}-${Math.random().toString(36).slice(2)}`;
  });
  afterEach(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    rmSync(home, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

  /** The newest contact: the one the dashboard's cursor starts on. */
  function firstContact(): { id: string; username: string } {
    const { data } = JSON.parse(cli('contacts', 'list', '--limit', '1', '--json').stdout);
    return { id: data[0].id, username: data[0].username };
  }

  /** Opens the dashboard in its own tmux server, confirms a delete, and leaves it in its undo window. */
  async function deleteThenHangUp(command: string, err: string): Promise<{ id: string; pid: number }> {
    const first = firstContact();
    const envs = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
    tmux('new-session', '-d', '-x', '120', '-y', '40', `env -u CI ${envs} ${command}`);
    const screen = () => tmux('capture-pane', '-p');
    const seen = () =>
      `; the screen was:\n${screen()}\nand stderr:\n${existsSync(err) ? readFileSync(err, 'utf8') : '(none yet)'}`;
    // By username: the newest demo contact is drawn from a random seed, and a display name may be
    // an emoji or CJK text the dashboard draws otherwise than JavaScript slices it. Usernames are
    // ASCII, and eight characters fit the username column.
    await pollUntil(() => /page 1/.test(screen()) && screen().includes(first.username.slice(0, 8)), 'the dashboard', 30_000, seen);
    // Sent again until it shows: on a busy machine the first page can be drawn a moment before
    // the key handler listens. Every 3 s, not sooner: under load a key's frame can take longer
    // than half a second, and a key sent again may act twice.
    const pressUntil = async (key: string, shown: RegExp, what: string) => {
      let sentAt = 0;
      await pollUntil(() => {
        if (shown.test(screen())) return true;
        if (Date.now() - sentAt > 3000) {
          tmux('send-keys', key);
          sentAt = Date.now();
        }
        return false;
      }, what, 30_000, seen);
    };
    await pressUntil('d', /y: delete/, 'the delete prompt');
    await pressUntil('y', /u: undo \(\d+s\)/, 'the undo offer');
    const pid = Number(
      execFileSync('pgrep', ['-n', '-f', `${BIN}$`], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1),
    );
    expect(pid).toBeGreaterThan(0);
    tmux('kill-server');
    return { id: first.id, pid };
  }

  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('on SIGHUP: sends the pending delete, closes the database and says nothing', async () => {
    const err = join(home, 'stderr.txt');
    const { id, pid } = await deleteThenHangUp(`sh -c ${quote(`${quote(process.execPath)} ${quote(BIN)} 2>${quote(err)}`)}`, err);
    await pollUntil(() => !alive(pid), 'tickbook to end', 15_000, () => `; stderr: ${readFileSync(err, 'utf8')}`);
    expect(readFileSync(err, 'utf8')).toBe('');
    // Closed: SQLite folds the write-ahead log back and removes it when the last connection closes.
    expect(existsSync(join(home, 'data', 'tickbook', 'sandbox.db-wal'))).toBe(false);
    const get = cli('contacts', 'get', id);
    expect(get.status).toBe(1);
    expect(get.stderr).toMatch(/no contact with id/);
  }, 60_000);

  it('on EIO (a process in another session, which the kernel does not signal): the same, ended as a hang-up', async () => {
    const err = join(home, 'stderr.txt');
    const status = join(home, 'status.txt');
    // bash, not sh: dash writes "Hangup" for a child ended by SIGHUP into that child's own
    // redirection, which would be read here as tickbook's.
    const inner = `${quote(process.execPath)} ${quote(BIN)} 2>${quote(err)}; echo $? >${quote(status)}`;
    const { id, pid } = await deleteThenHangUp(`setsid -w bash -c ${quote(inner)}`, err);
    await pollUntil(() => existsSync(status) && readFileSync(status, 'utf8').trim() !== '', 'the exit status', 15_000);
    expect(alive(pid)).toBe(false);
    // 129: ended by SIGHUP, as a shell reports a job whose terminal hung up.
    expect(readFileSync(status, 'utf8').trim()).toBe('129');
    expect(readFileSync(err, 'utf8')).toBe('');
    expect(existsSync(join(home, 'data', 'tickbook', 'sandbox.db-wal'))).toBe(false);
    expect(cli('contacts', 'get', id).status).toBe(1);
  }, 60_000);
});

describe('a crash in the dashboard', () => {
  it('sends the delete waiting out its undo window before it ends, and reports the error', async () => {
    const { startTestSandbox } = await import('../helpers/sandbox.js');
    const sandbox = await startTestSandbox({ demoData: true });
    const dir = mkdtempSync(join(tmpdir(), 'tickbook-crash-'));
    try {
      const check = new (await import('../../src/api/client.js')).TickbookClient({
        contactsUrl: sandbox.url,
        marketDataUrl: sandbox.url,
        token: sandbox.token,
        apiKey: sandbox.apiKey,
      });
      const first = (await check.listContacts({ limit: 1 })).contacts[0]!;
      const harness = fileURLToPath(new URL('./fixtures/crash-after-delete.mjs', import.meta.url));
      const err = join(dir, 'stderr.txt');
      const command = `${quote(process.execPath)} ${quote(harness)} ${sandbox.url} ${sandbox.token} ${sandbox.apiKey} 2>${quote(err)}`;
      // A real terminal for it: `script` gives it a pty of its own. Not spawnSync: the sandbox
      // answering it runs in this process.
      const status = await new Promise<number | null>((resolve) => {
        const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { ...process.env, CI: '', TERM: 'xterm-256color' }, stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
      expect(status).toBe(0);
      expect(readFileSync(err, 'utf8')).toBe('ENDED with: boom: something nobody caught\n');
      // Sent at once on the way out, not 5 s later (the harness ended before that).
      let gone = false;
      try {
        await check.getContact(first.id);
      } catch (error) {
        gone = (error as { kind?: string }).kind === 'not_found';
      }
      expect(gone).toBe(true);
      await check.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await sandbox.close();
    }
  }, 30_000);
});
