// The widths table made at build time (src/text/bmp-widths.ts) is what string-width and this
// Node's segmenter say of every BMP character, so simpleWidth reads it instead of asking them at
// start; made for another Unicode version, it is not used.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bmpWidthsSource, widthRuns } from '../../scripts/write-bmp-widths.js';
import { BMP_WIDTHS } from '../../src/text/bmp-widths.js';
import { NOT_SIMPLE, tableFromRuns } from '../../src/text/simple-width.js';

describe('the BMP widths table', () => {
  it('is what `npm run widths` writes now, when this Node has the Unicode version it was made on', () => {
    if (BMP_WIDTHS.unicode === process.versions.unicode) {
      // string-width's version is in the text too: an upgrade without `npm run widths` fails here.
      expect(bmpWidthsSource()).toBe(readFileSync(new URL('../../src/text/bmp-widths.ts', import.meta.url), 'utf8'));
    } else {
      // Another Node: the table stands aside and characters are asked of string-width as seen.
      expect(tableFromRuns(BMP_WIDTHS)).toBeUndefined();
    }
  });

  it('is read back run by run, each width up to the next start', () => {
    const table = tableFromRuns({ unicode: 'u', runs: [0, NOT_SIMPLE, 32, 1, 127, NOT_SIMPLE, 0x4e00, 2] }, 'u')!;
    expect([table[0], table[31], table[32], table[126], table[127], table[0x4dff], table[0x4e00], table[0xffff]]).toEqual([
      NOT_SIMPLE, NOT_SIMPLE, 1, 1, NOT_SIMPLE, NOT_SIMPLE, 2, 2,
    ]);
    expect(tableFromRuns({ unicode: '15.1', runs: [0, 1] }, '17.0')).toBeUndefined();
  });

  it('writes a run wherever the width changes, and reads back to the same widths', () => {
    const classify = (unit: number) => (unit < 10 ? NOT_SIMPLE : unit < 0x3000 ? 1 : 2);
    const runs = widthRuns(classify);
    expect(runs).toEqual([0, NOT_SIMPLE, 10, 1, 0x3000, 2]);
    const table = tableFromRuns({ unicode: 'u', runs }, 'u')!;
    for (const unit of [0, 9, 10, 0x2fff, 0x3000, 0xffff]) expect(table[unit]).toBe(classify(unit));
  });
});

