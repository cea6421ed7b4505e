// Asking the terminal for doctor: the questions written, the answers read back in order, a
// terminal that answers only some, or none in time; and the widths judged against the
// dashboard's own counting.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CJK, EMOJI, widthsFinding } from '../../src/cli/doctor.js';
import { inBackground, parseProbeAnswers, probeQuestions, probeTerminal, PROBE_TIMEOUT_MS } from '../../src/cli/terminal-probe.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { width } from '../../src/text/width.js';

const ESC = '\u001b';

describe('probeQuestions and parseProbeAnswers', () => {
  it('asks for the cursor after each character at the line start, then DECRQM 1006, then DA1', () => {
    expect(probeQuestions(['…', EMOJI])).toBe(`\r…${ESC}[6n\r${EMOJI}${ESC}[6n${ESC}[?1006$p${ESC}[c`);
  });

  it('reads the widths in order, the mouse mode report, and whether the last answer came', () => {
    const answers = parseProbeAnswers(`${ESC}[40;2R${ESC}[40;3R${ESC}[?1006;2$y${ESC}[?62;22c`, ['…', EMOJI]);
    expect([...answers.widths]).toEqual([['…', 1], [EMOJI, 2]]);
    expect(answers).toMatchObject({ sgrMouse: true, complete: true });
    expect(parseProbeAnswers(`${ESC}[?1006;0$y${ESC}[?1;2c`, []).sgrMouse).toBe(false);
    // tmux: positions and DA1, no DECRQM.
    expect(parseProbeAnswers(`${ESC}[1;2R${ESC}[?1;2c`, ['…'])).toMatchObject({ sgrMouse: undefined, complete: true });
    expect(parseProbeAnswers('', ['…'])).toMatchObject({ sgrMouse: undefined, complete: false, widths: new Map() });
  });
});

/** A terminal's two ends, answering each question with `answer` (or not at all). */
function fakeTty(answer: ((asked: string) => string) | undefined, tty = true) {
  const input = Object.assign(new EventEmitter(), {
    isTTY: tty,
    raw: [] as boolean[],
    paused: true,
    setRawMode(mode: boolean) {
      input.raw.push(mode);
    },
    resume() {
      input.paused = false;
    },
    pause() {
      input.paused = true;
    },
  });
  const written: string[] = [];
  const output = {
    isTTY: tty,
    write(text: string) {
      written.push(text);
      const reply = answer?.(text);
      if (reply) setTimeout(() => input.emit('data', Buffer.from(reply, 'latin1')), 5);
      return true;
    },
  };
  return { input, output, written };
}

describe('probeTerminal', () => {
  it('takes the answers, erases what it wrote, and gives the terminal back as it was', async () => {
    const { input, output, written } = fakeTty(() => `${ESC}[3;2R${ESC}[3;3R${ESC}[?62c`);
    const answers = await probeTerminal(input, output, ['…', CJK], () => false);
    expect([...answers!.widths]).toEqual([['…', 1], [CJK, 2]]);
    expect(answers!.complete).toBe(true);
    expect(written.at(-1)).toBe(`\r${ESC}[K`);
    expect(input.raw).toEqual([true, false]);
    expect(input.paused).toBe(true);
    expect(input.listenerCount('data')).toBe(0);
  });

  it('a terminal that answers nothing: given up after the timeout, with no answers', async () => {
    const { input, output } = fakeTty(undefined);
    const started = Date.now();
    const answers = await probeTerminal(input, output, ['…'], () => false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 20);
    expect(answers).toMatchObject({ complete: false, sgrMouse: undefined });
    expect(answers!.widths.size).toBe(0);
    expect(input.raw).toEqual([true, false]);
  });

  it('asks nothing when either end is not a terminal', async () => {
    const { input, output, written } = fakeTty(() => 'x', false);
    expect(await probeTerminal(input, output, ['…'], () => false)).toBeUndefined();
    expect(written).toEqual([]);
    expect(input.raw).toEqual([]);
  });

  it('asks nothing from the background (tickbook doctor &), where changing the mode would stop it', async () => {
    const { input, output, written } = fakeTty(() => `${ESC}[?62c`);
    expect(await probeTerminal(input, output, ['…'], () => true)).toBeUndefined();
    expect(written).toEqual([]);
    expect(input.raw).toEqual([]);
  });
});

describe('inBackground', () => {
  it('reads /proc/PID/stat: its process group against the terminal\'s foreground one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickbook-stat-'));
    const stat = (text: string) => {
      const path = join(dir, 'stat');
      writeFileSync(path, text);
      return path;
    };
    try {
      expect(inBackground(stat('4242 (node) S 100 4242 100 34816 4242 4194560 1'))).toBe(false);
      expect(inBackground(stat('4242 (node) T 100 4242 100 34816 100 4194560 1'))).toBe(true);
      // A command name with spaces and parentheses; no terminal at all (-1).
      expect(inBackground(stat('4242 (a (b) c) S 100 4242 100 34816 100 4194560 1'))).toBe(true);
      expect(inBackground(stat('4242 (node) S 100 4242 100 0 -1 4194560 1'))).toBe(false);
      expect(inBackground(join(dir, 'missing'))).toBe(false);
      // This test's own process, as Linux says.
      expect(typeof inBackground()).toBe('boolean');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('widthsFinding', () => {
  it('well when every width is the dashboard\'s; not, naming each, with the advice that fits', () => {
    expect(widthsFinding(new Map([['…', 1], [EMOJI, 2]]), width)).toMatchObject({ verdict: 'ok' });
    const ambiguous = widthsFinding(new Map([['…', 2], ['▲', 2], [EMOJI, 2]]), width);
    expect(ambiguous.verdict).toBe('bad');
    expect(ambiguous.detail).toMatch(/… 2 columns wide \(the dashboard counts 1\), ▲ 2 columns wide/);
    expect(ambiguous.detail).toMatch(/"glyphs": "ascii"/);
    const emoji = widthsFinding(new Map([['…', 1], [EMOJI, 1]]), width);
    expect(emoji).toMatchObject({ verdict: 'bad', detail: expect.stringMatching(/names with emoji or CJK characters will not line up/) });
    expect(widthsFinding(new Map(), width).verdict).toBe('info');
  });
});
