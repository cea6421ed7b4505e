// The --debug-log file stays bounded: past its size it moves to FILE.1 and starts again; a link
// keeps pointing at the live file; a device is never moved; a move that fails is one warning.
import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { DEBUG_LOG_MAX_BYTES, debugLogLine, openDebugLog } from '../../src/cli/debug-log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-debug-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (i: number): RequestLogEntry => ({
  time: new Date(1_700_000_000_000 + i * 1000),
  method: 'POST',
  url: 'http://127.0.0.1:8080/v1/utilities/stock/realtime-pricing',
  status: 200,
  ms: 1.5,
  requestId: `req_${i}`,
  retry: 0,
  error: undefined,
});
const LINE = debugLogLine(entry(0)).length;
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('the debug log', () => {
  it('is bounded by default at 10 MiB a file', () => {
    expect(DEBUG_LOG_MAX_BYTES).toBe(10 * 1024 * 1024);
  });

  it('moves to FILE.1 once past its size and starts again, keeping the newest lines and two files at most', () => {
    const path = join(dir, 'requests.log');
    const warnings: string[] = [];
    const log = openDebugLog(path, (w) => warnings.push(w), LINE * 10);
    for (let i = 0; i < 35; i++) log.write(entry(i));
    log.close();
    expect(warnings).toEqual([]);
    // 35 lines: three full files of 10 went by; FILE.1 holds 20..29, FILE the last 5.
    expect(lines(`${path}.1`).map((l) => l.split(' ')[5])).toEqual(Array.from({ length: 10 }, (_, i) => `req_${20 + i}`));
    expect(lines(path).map((l) => l.split(' ')[5])).toEqual(['req_30', 'req_31', 'req_32', 'req_33', 'req_34']);
    expect(existsSync(`${path}.2`)).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('counts what the file already held when it was opened', () => {
    const path = join(dir, 'requests.log');
    writeFileSync(path, 'x'.repeat(LINE * 9));
    const log = openDebugLog(path, () => undefined, LINE * 10);
    log.write(entry(1));
    log.close();
    expect(statSync(`${path}.1`).size).toBe(LINE * 10);
    expect(statSync(path).size).toBe(0);
  });

  it('through a link, moves the file linked to and leaves the link in place', () => {
    mkdirSync(join(dir, 'logs'));
    const target = join(dir, 'logs', 'real.log');
    const link = join(dir, 'current.log');
    writeFileSync(target, '');
    symlinkSync(target, link);
    const log = openDebugLog(link, () => undefined, LINE * 3);
    for (let i = 0; i < 4; i++) log.write(entry(i));
    log.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(lines(`${target}.1`)).toHaveLength(3);
    expect(lines(link)).toHaveLength(1);
    expect(existsSync(`${link}.1`)).toBe(false);
  });

  it('never moves what is not a regular file (/dev/null)', () => {
    const log = openDebugLog('/dev/null', () => undefined, LINE);
    for (let i = 0; i < 5; i++) log.write(entry(i));
    log.close();
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(existsSync('/dev/null.1')).toBe(false);
  });

  it('says once, naming the option and the file, when it cannot start a new file, and stops', () => {
    const path = join(dir, 'requests.log');
    // FILE.1 a directory that is not empty: the move fails.
    mkdirSync(`${path}.1`);
    writeFileSync(join(`${path}.1`, 'keep'), '');
    const warnings: string[] = [];
    const log = openDebugLog(path, (w) => warnings.push(w), LINE * 2);
    for (let i = 0; i < 6; i++) log.write(entry(i));
    log.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^option --debug-log: cannot start a new file for ".*requests\.log" any more: .+; the log stops here$/);
    expect(lines(path)).toHaveLength(2);
  });

  it('never moves the file behind /proc/self/fd or /dev/fd (where /dev/stderr points when the shell redirects it)', () => {
    const redirected = join(dir, 'session.log');
    const fd = openSync(redirected, 'a');
    try {
      for (const path of [`/proc/self/fd/${fd}`, `/dev/fd/${fd}`]) {
        const log = openDebugLog(path, () => undefined, LINE * 2);
        for (let i = 0; i < 5; i++) log.write(entry(i));
        log.close();
      }
    } finally {
      closeSync(fd);
    }
    expect(existsSync(`${redirected}.1`)).toBe(false);
    expect(lines(redirected)).toHaveLength(10);
  });

  it('two processes on one log lose no line: the one that finds the file already moved starts on the new one', () => {
    const path = join(dir, 'requests.log');
    const first = openDebugLog(path, () => undefined, LINE * 4);
    const second = openDebugLog(path, () => undefined, LINE * 4);
    let written = 0;
    for (let i = 0; i < 12; i++) {
      first.write(entry(written++));
      second.write(entry(written++));
    }
    first.close();
    second.close();
    const kept = [...lines(path), ...(existsSync(`${path}.1`) ? lines(`${path}.1`) : [])];
    // At most two files are kept; what is in them is whole and in order per file. The lines the
    // second wrote into the moved file are not written over by a fresh one.
    const ids = kept.map((l) => Number(l.split(' ')[5]!.slice(4)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(written - 1);
    expect(ids).toContain(written - 2);
  });
});
