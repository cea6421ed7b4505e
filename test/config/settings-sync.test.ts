// Two windows' settings on one real config file (issue 38, item 1), each a SettingsSync as the
// dashboard has: a save writes what that window changed, merged into the file as the other left
// it; a poll takes in what the other saved, once per change of the file; the interval is saved
// only by the window that changed it, and followed by the other; a file that cannot be read is
// never written over, the change kept and saved once it can be; a window's lists for one run
// (--watchlist A,B) are neither saved nor taken in.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigSaveError, readConfigFile } from '../../src/config/config-file.js';
import { savedLists } from '../../src/config/saved-watchlists.js';
import { ConfigReadError, fileStamp, SettingsSync } from '../../src/config/settings-sync.js';
import type { Watchlist, Watchlists } from '../../src/market/watchlists.js';

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-sync-'));
  path = join(dir, 'config.json');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const TECH = { name: 'Tech', symbols: ['AAPL', 'MSFT', 'NVDA'] };
const BANKS = { name: 'Banks', symbols: ['JPM'] };

/** A window started on the file as it is: its sync and the lists it shows. */
function open(options: { lists?: boolean; interval?: boolean } = {}) {
  const stamp = fileStamp(path);
  const { config } = readConfigFile(path);
  const lists = savedLists(config)!;
  const intervalS = config.interval ?? 2;
  const sync = new SettingsSync(path, { lists: options.lists === false ? undefined : lists, intervalS: options.interval === false ? undefined : intervalS, stamp });
  const window = {
    lists,
    intervalS,
    sync,
    /** Changes the list shown and saves it, taking in what comes back. */
    change(edit: (list: Watchlist) => Watchlist) {
      const mine: Watchlists = { ...window.lists, lists: window.lists.lists.map((l, i) => (i === window.lists.active ? edit(l) : l)) };
      window.lists = mine;
      return window.poll();
    },
    poll() {
      const synced = sync.sync(window.lists, window.intervalS);
      if (synced?.lists) window.lists = synced.lists;
      if (synced?.intervalS !== undefined) window.intervalS = synced.intervalS;
      return synced;
    },
    shown: () => window.lists.lists[window.lists.active]!.symbols,
  };
  return window;
}

const file = () => JSON.parse(readFileSync(path, 'utf8')) as { watchlists: { name: string; symbols: string[]; sort?: string; colour?: string }[]; interval?: number; active_watchlist?: string; watchlist?: string[] };
const write = (settings: object) => writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
const without = (symbol: string) => (l: Watchlist) => ({ ...l, symbols: l.symbols.filter((s) => s !== symbol) });
const adding = (symbol: string) => (l: Watchlist) => ({ ...l, symbols: [...l.symbols, symbol] });

describe('two windows on one file', () => {
  it('A removes AAPL, B removes MSFT: the file has neither; B shows it at once, A at its next poll', () => {
    write({ watchlists: [TECH, BANKS], active_watchlist: 'Tech', interval: 2 });
    const a = open();
    const b = open();
    a.change(without('AAPL'));
    expect(file().watchlists[0]!.symbols).toEqual(['MSFT', 'NVDA']);
    b.change(without('MSFT'));
    expect(file().watchlists[0]!.symbols).toEqual(['NVDA']);
    // What an older tickbook reads is the merged list too.
    expect(file().watchlist).toEqual(['NVDA']);
    expect(b.shown()).toEqual(['NVDA']);
    expect(a.poll()?.lists?.lists[0]!.symbols).toEqual(['NVDA']);
    // Taken in once: the next poll has nothing to do.
    expect(a.poll()).toBeUndefined();
    expect(b.poll()).toBeUndefined();
  });

  it('A adds NFLX, B adds ORCL: both; a later sort in A keeps both', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open();
    const b = open();
    a.change(adding('NFLX'));
    b.change(adding('ORCL'));
    a.change((l) => ({ ...l, sort: 'symbol' }));
    expect(file().watchlists[0]).toMatchObject({ symbols: ['AAPL', 'MSFT', 'NVDA', 'NFLX', 'ORCL'], sort: 'symbol' });
    expect(a.shown()).toEqual(['AAPL', 'MSFT', 'NVDA', 'NFLX', 'ORCL']);
    expect(b.poll()?.lists?.lists[0]).toMatchObject({ symbols: ['AAPL', 'MSFT', 'NVDA', 'NFLX', 'ORCL'], sort: 'symbol' });
  });

  it('the interval is saved by the window that changed it and followed by the other, never put back by a save of lists', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open();
    const b = open();
    a.intervalS = 5;
    a.poll();
    expect(file().interval).toBe(5);
    // B saves its lists before it has read the file again: the interval stays A's, and B follows it.
    const synced = b.change(without('AAPL'));
    expect(file()).toMatchObject({ interval: 5, watchlists: [{ symbols: ['MSFT', 'NVDA'] }] });
    expect(synced?.intervalS).toBe(5);
    expect(b.intervalS).toBe(5);
  });

  it('each list keeps what the file holds now besides its symbols (a key another release wrote meanwhile)', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open();
    write({ watchlists: [{ ...TECH, colour: 'teal' }], interval: 2 });
    a.change(without('NVDA'));
    expect(file().watchlists[0]).toMatchObject({ symbols: ['AAPL', 'MSFT'], colour: 'teal' });
  });

  it('the list shown deleted in another window: the window shows another, and is told', () => {
    write({ watchlists: [TECH, BANKS], active_watchlist: 'Banks', interval: 2 });
    const a = open();
    expect(a.lists.active).toBe(1);
    write({ watchlists: [TECH], active_watchlist: 'Tech', interval: 2 });
    const synced = a.poll();
    expect(synced?.notes).toEqual(['the list Banks was deleted in another window; showing Tech']);
    expect(a.lists).toMatchObject({ active: 0, lists: [{ name: 'Tech' }] });
  });
});

describe('a file that cannot be read is not written over', () => {
  it('invalid JSON at a save: a ConfigSaveError, the file as it was; put right, the next poll saves the change merged', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open();
    const broken = readFileSync(path, 'utf8').replace('"Tech"', '"Tech",,');
    writeFileSync(path, broken);
    let failure: unknown;
    try {
      a.change(without('AAPL'));
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ConfigSaveError);
    expect((failure as ConfigSaveError).reason).toMatch(/^it holds invalid JSON at line 4, column \d+: .*; correct it first$/);
    expect(readFileSync(path, 'utf8')).toBe(broken);
    // Kept here: the window still shows it without AAPL, and each poll tries again.
    expect(a.shown()).toEqual(['MSFT', 'NVDA']);
    expect(() => a.poll()).toThrow(ConfigSaveError);
    // Put right by hand, with ORCL added meanwhile: the change goes in beside it.
    write({ watchlists: [{ ...TECH, symbols: [...TECH.symbols, 'ORCL'] }], interval: 2 });
    a.poll();
    expect(file().watchlists[0]!.symbols).toEqual(['MSFT', 'NVDA', 'ORCL']);
    expect(a.shown()).toEqual(['MSFT', 'NVDA', 'ORCL']);
  });

  it('lists that are not lists (valid JSON) at a save: refused, the file as it was', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open();
    const malformed = `${JSON.stringify({ watchlists: 'AAPL', interval: 2 })}\n`;
    writeFileSync(path, malformed);
    expect(() => a.change(without('AAPL'))).toThrow(/^cannot save .*: watchlists must be an array of lists like .*; correct it first$/);
    expect(readFileSync(path, 'utf8')).toBe(malformed);
  });

  it('invalid JSON at a poll with nothing to save: a ConfigReadError, once per change of the file; the window keeps its lists', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open();
    writeFileSync(path, '{"watchlists": [');
    let failure: unknown;
    try {
      a.poll();
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ConfigReadError);
    expect((failure as ConfigReadError).message).toMatch(/^cannot read .*config\.json: it holds /);
    expect(a.poll()).toBeUndefined();
    expect(a.shown()).toEqual(['AAPL', 'MSFT', 'NVDA']);
    // Put right, with a change: taken in.
    write({ watchlists: [{ ...TECH, symbols: ['IBM'] }], interval: 2 });
    expect(a.poll()?.lists?.lists[0]!.symbols).toEqual(['IBM']);
  });

  it('a file taken away: the window\'s lists, as they were, are the file\'s; its next change saves them all', () => {
    write({ watchlists: [TECH, BANKS], interval: 2 });
    const a = open();
    rmSync(path);
    expect(a.poll()).toBeUndefined();
    a.change(adding('ORCL'));
    expect(file().watchlists.map((l) => l.symbols)).toEqual([['AAPL', 'MSFT', 'NVDA', 'ORCL'], ['JPM']]);
  });
});

describe('what a window was given for one run', () => {
  it('lists for this run (--watchlist A,B) are neither saved nor taken in; the interval still is', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open({ lists: false });
    const b = open();
    b.change(without('AAPL'));
    expect(a.poll()?.lists).toBeUndefined();
    a.lists = { lists: [{ ...a.lists.lists[0]!, symbols: ['IBM'] }], active: 0 };
    a.intervalS = 9;
    a.poll();
    expect(file()).toMatchObject({ interval: 9, watchlists: [{ symbols: ['MSFT', 'NVDA'] }] });
  });

  it('an interval for this run (--interval) is neither saved nor taken in', () => {
    write({ watchlists: [TECH], interval: 2 });
    const a = open({ interval: false });
    a.intervalS = 9;
    a.change(without('AAPL'));
    expect(file().interval).toBe(2);
    write({ ...file(), interval: 4 });
    expect(a.poll()).toBeUndefined();
  });
});
