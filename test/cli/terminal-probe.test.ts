// Asking the terminal for doctor: the questions written, the answers read back in order, a
// terminal that answers only some, or none in time; and the widths judged against the
// dashboard's own counting.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CJK, EMOJI, widthsFinding } from '../../src/cli/doctor.js';
import { parseProbeAnswers, probeQuestions, probeTerminal, PROBE_TIMEOUT_MS } from '../../src/cli/terminal-probe.js';
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
    const answers = await probeTerminal(input, output, ['…', CJK]);
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
    const answers = await probeTerminal(input, output, ['…']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 20);
    expect(answers).toMatchObject({ complete: false, sgrMouse: undefined });
    expect(answers!.widths.size).toBe(0);
    expect(input.raw).toEqual([true, false]);
  });

  it('asks nothing when either end is not a terminal', async () => {
    const { input, output, written } = fakeTty(() => 'x', false);
    expect(await probeTerminal(input, output, ['…'])).toBeUndefined();
    expect(written).toEqual([]);
    expect(input.raw).toEqual([]);
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
