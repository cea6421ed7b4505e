// The progress line on a terminal: redrawn in place with a bar, or, for a screen reader, a line of
// its own now and then and no bar (a reader would read every redraw, and a bar block by block).
// stderr is made to say it is a terminal, and what is written to it is kept.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressLine, READER_EVERY_MS } from '../../src/cli/progress-line.js';

let written = '';
const wasTty = process.stderr.isTTY;
beforeEach(() => {
  written = '';
  process.stderr.isTTY = true;
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written += String(chunk);
    return true;
  });
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  process.stderr.isTTY = wasTty;
  delete process.env.TICKBOOK_SCREEN_READER;
});

describe('ProgressLine', () => {
  it('redraws one line in place, with a bar, at most ten times a second', () => {
    const line = new ProgressLine();
    line.show(`${line.bar(1, 4, 8)} 25%`);
    vi.advanceTimersByTime(50);
    line.show('skipped: too soon');
    vi.advanceTimersByTime(100);
    line.show(`${line.bar(2, 4, 8)} 50%`);
    line.done();
    expect(written).toContain('\r\u001b[2K');
    expect(written).not.toContain('too soon');
    expect(written).toMatch(/█+ +▏ 50%|#+\.+\] 50%/);
  });

  it('for a screen reader: lines of their own, the first at once, then one every ten seconds, and no bar', () => {
    for (const line of [new ProgressLine(true), (process.env.TICKBOOK_SCREEN_READER = '1', new ProgressLine())]) {
      written = '';
      line.show(`${line.bar(1, 4, 8)} 25% · 10 created`);
      vi.advanceTimersByTime(READER_EVERY_MS - 1);
      line.show(`${line.bar(2, 4, 8)} 50% · 20 created`);
      vi.advanceTimersByTime(1);
      line.show(`${line.bar(3, 4, 8)} 75% · 30 created`);
      line.done();
      expect(written).toBe('25% · 10 created\n75% · 30 created\n');
    }
  });

  it('for a screen reader, a line that must be said (forced: a wait the server asked for) is said at once', () => {
    const line = new ProgressLine(true);
    line.show('10% · 5 created');
    line.show('10% · waiting 30 s: the server asks to slow down', true);
    expect(written).toBe('10% · 5 created\n10% · waiting 30 s: the server asks to slow down\n');
  });
});
