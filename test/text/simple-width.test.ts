// The table-summed width: string-width's answer whenever it gives one, for every character of the
// Basic Multilingual Plane beside letters and itself, and for mixed texts; none for texts whose
// characters join (accents, emoji sequences, jamo, escape sequences). The same table's clusters:
// the segmenter's, each measured by string-width, whenever it gives them.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { ownGraphemes, simpleWidth } from '../../src/text/simple-width.js';

/** Each code unit of the Basic Multilingual Plane as a character beside letters and itself. */
function* bmpTexts(): Generator<[unit: number, text: string]> {
  for (let unit = 0; unit < 0x10000; unit++) {
    const character = String.fromCharCode(unit);
    yield [unit, `a${character}${character}b${character}`];
  }
}

/** `count` texts of 1 to 12 pieces from `pool`, the same ones on every run (from `seed`). */
function randomTexts(pool: readonly string[], seed: number, count = 5_000): string[] {
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 12) }, () => pool[Math.floor(next() * pool.length)]).join(''));
}

describe('simpleWidth', () => {
  it("gives string-width's answer for every BMP character beside letters and itself, or none", () => {
    const wrong: string[] = [];
    let answered = 0;
    for (const [unit, text] of bmpTexts()) {
      const width = simpleWidth(text);
      if (width === undefined) continue;
      answered++;
      if (width !== stringWidth(text)) wrong.push(`U+${unit.toString(16)}: ${width}, string-width ${stringWidth(text)}`);
    }
    expect(wrong).toEqual([]);
    // Nearly all of them: the table is worth having.
    expect(answered).toBeGreaterThan(60_000);
  });

  it('answers for the texts a frame is made of', () => {
    const styled = ['\u001b[31mred\u001b[39m', '\u001b[1;38;5;208m━━\u001b[0m▲', '\u001b[m陳\u001b[7m x\u001b[27m'];
    for (const text of ['┃ ▸ Contacts ━━━┓', '▁▂▃▄▅▆▇█', 'AAPL  ▲ 1.23%', '陳美玲 and 김민지', 'Zoë Ångström', '…', '', '全角ＡＢＣ', ...styled]) {
      expect(simpleWidth(text), text).toBe(stringWidth(text));
    }
  });

  it('leaves to string-width what joins or needs stripping', () => {
    for (const text of ['e\u0301', 'Thiago 🏄‍♂️ Santos', '👍🏽', '1\uFE0F\u20E3', '\u1100\u1161', 'ﾊﾞ', '\u001b]8;;https://x\u0007link\u001b]8;;\u0007', '\u001b[38:2:1:2:3mx', '\u001b[31', 'a\u001bb', 'a\tb', 'ก\u0E33', 'x\u200Dy', '🇫🇷']) {
      expect(simpleWidth(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('agrees with string-width on random texts mixing simple characters with joining ones', () => {
    const pool = ['a', 'Z', ' ', '━', '▲', '陳', '김', 'é', 'e\u0301', '\u200D', '🏄', '\uFE0F', '\u1100', '\u1161', '\u11A8', 'ﾞ', 'ﾊ', '\u0E33', '\u0D4E', '…', '·', '\u00AD', '\u200B', '\u0600', '1', '\u20E3', '\u001b[31m', '\u001b[0m', '\u001b[', 'm', ';'];
    for (const text of randomTexts(pool, 7)) {
      const width = simpleWidth(text);
      if (width !== undefined) expect(width, JSON.stringify(text)).toBe(stringWidth(text));
    }
  });
});

describe('ownGraphemes', () => {
  const segmenter = new Intl.Segmenter();
  const segmented = (text: string) => Array.from(segmenter.segment(text), ({ segment }) => [segment, stringWidth(segment)]);

  it('gives the segmenter’s clusters and string-width’s widths for every BMP character beside letters and itself, or none', () => {
    const wrong: string[] = [];
    let answered = 0;
    for (const [unit, text] of bmpTexts()) {
      const clusters = ownGraphemes(text);
      if (clusters === undefined) continue;
      answered++;
      if (JSON.stringify(clusters) !== JSON.stringify(segmented(text))) wrong.push(`U+${unit.toString(16)}`);
    }
    expect(wrong).toEqual([]);
    expect(answered).toBeGreaterThan(60_000);
  });

  it('answers for a tick’s sparklines and arrows, and leaves joining text to the segmenter', () => {
    for (const text of ['▇▅██▅▅8', '3 ▲0.053▄▃▇▁▅▅6', '·0.00', '±0.00▃', '━━┓', '陳美玲']) expect(ownGraphemes(text), text).toEqual(segmented(text));
    for (const text of ['e\u0301', '👍🏽', 'x\u200Dy', '▲\uFE0F', '\u001b[31m']) expect(ownGraphemes(text), JSON.stringify(text)).toBeUndefined();
  });

  it('agrees with the segmenter on random texts mixing simple characters with joining ones', () => {
    const pool = ['a', ' ', '━', '▲', '▁', '█', '陳', '김', 'é', 'e\u0301', '\u200D', '🏄', '\uFE0F', '\u1100', '\u1161', 'ﾞ', 'ﾊ', '\u0E33', '…', '·', '\u00AD', '\u200B', '1', '\u20E3'];
    let answered = 0;
    for (const text of randomTexts(pool, 11)) {
      const clusters = ownGraphemes(text);
      if (clusters === undefined) continue;
      answered++;
      expect(clusters, JSON.stringify(text)).toEqual(segmented(text));
    }
    expect(answered).toBeGreaterThan(100);
  });
});
