// A line as cells (character, SGR state, columns) and the span of two lines that differs: the
// pure half of the screen writer's partial line writes.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { applySgr, changedRuns, changedSpan, DEFAULT_STYLE, drawCells, endStyle, parseLine, styleChange, type Style } from '../../../src/tui/terminal/line-cells.js';

const ESC = '\u001b';
const sgr = (params: string) => `${ESC}[${params}m`;
/** The cells of a line as [text, state, width] triples, for readable expectations. */
const cellsOf = (line: string) => parseLine(line).cells.map((cell) => [cell.text, cell.style.key, cell.width]);
/** The state after SGR parameter lists (what comes between CSI and m), one after another. */
const styleOf = (...sequences: string[]): Style => sequences.reduce(applySgr, DEFAULT_STYLE);

describe('parseLine', () => {
  it('plain ASCII: a cell a character, one column each, in the default state', () => {
    const line = parseLine('ab c');
    expect(line.width).toBe(4);
    expect(line.starts).toEqual([0, 1, 2, 3]);
    expect(cellsOf('ab c')).toEqual([
      ['a', '', 1],
      ['b', '', 1],
      [' ', '', 1],
      ['c', '', 1],
    ]);
    expect(parseLine('')).toEqual({ cells: [], starts: [], width: 0, opaque: false });
  });

  it('each cell carries the state in force where it is drawn', () => {
    expect(cellsOf(`${sgr('1;31')}ab${sgr('39')}c${sgr('22')}d`)).toEqual([
      ['a', '1;31', 1],
      ['b', '1;31', 1],
      ['c', '1', 1],
      ['d', '', 1],
    ]);
  });

  it('a wide character is one cell of two columns; the next starts two columns on', () => {
    const line = parseLine('a中b😀c');
    expect(line.cells.map((cell) => [cell.text, cell.width])).toEqual([
      ['a', 1],
      ['中', 2],
      ['b', 1],
      ['😀', 2],
      ['c', 1],
    ]);
    expect(line.starts).toEqual([0, 1, 3, 4, 6]);
    expect(line.width).toBe(7);
  });

  it('combining marks belong to the character before them, also across a change of style', () => {
    expect(cellsOf('e\u0301x')).toEqual([
      ['e\u0301', '', 1],
      ['x', '', 1],
    ]);
    // The mark is drawn into the cell of the e, which keeps the e's state.
    expect(cellsOf(`e${sgr('31')}\u0301\u0323x`)).toEqual([
      ['e\u0301\u0323', '', 1],
      ['x', '31', 1],
    ]);
  });

  it('an emoji sequence is as wide as string-width says: one cell', () => {
    expect(cellsOf('👨‍👩‍👧!')).toEqual([
      ['👨‍👩‍👧', '', 2],
      ['!', '', 1],
    ]);
    expect(cellsOf('🇫🇷')).toEqual([['🇫🇷', '', 2]]);
  });

  it('marks with no character before them go in front of the first one', () => {
    expect(cellsOf('\u0301a')).toEqual([['\u0301a', '', 1]]);
    const marks = parseLine('\u0301');
    expect(marks.width).toBe(0);
    expect(marks.cells).toHaveLength(1);
  });

  it('hands out the same cell for a character drawn again in the same state, and never changes it', () => {
    const red = parseLine(`${sgr('31')}ab${sgr('39')}a`);
    const again = parseLine(`x${sgr('31')}ba`);
    // Same character, same state: one object; another state: another.
    expect(again.cells[2]).toBe(red.cells[0]);
    expect(again.cells[1]).toBe(red.cells[1]);
    expect(red.cells[2]).not.toBe(red.cells[0]);
    // A mark joining a kept cell makes a cell of its own: the kept one still shows the character alone.
    const marked = parseLine(`${sgr('31')}a\u0301`);
    expect(marked.cells[0]!.text).toBe('a\u0301');
    expect(red.cells[0]!.text).toBe('a');
    expect(parseLine(`${sgr('31')}a`).cells[0]).toBe(red.cells[0]);
  });

  it('reads sequences with colons; a sequence cut short is not one', () => {
    expect(cellsOf(`${sgr('4:3')}u${sgr('24')}x`)).toEqual([
      ['u', '4:3', 1],
      ['x', '', 1],
    ]);
    expect(parseLine(`u${ESC}[3`).cells.map((cell) => cell.text).join('')).toBe(`u${ESC}[3`);
  });

  it('cells are the grapheme clusters of the whole text, however much of it is ASCII', () => {
    // What parseLine does, the slow way: the whole text cut into clusters, each measured.
    const slow = (text: string) => {
      const cells: [string, number][] = [];
      let orphans = '';
      for (const { segment } of new Intl.Segmenter().segment(text)) {
        const width = stringWidth(segment);
        if (width > 0) cells.push([orphans + segment, width]);
        else if (cells.length > 0) cells[cells.length - 1]![0] += segment;
        else orphans += segment;
        if (width > 0) orphans = '';
      }
      return cells.length === 0 && orphans !== '' ? [[orphans, 0]] : cells;
    };
    // Characters that join the one before (marks, a skin tone, a joiner, a variation selector,
    // a Thai vowel, a Hangul vowel) or after (a prepended sign), or pair (flags).
    const alphabet = ['a', '0', ' ', '.', 'é', '中', '😀', '\u0301', '\u{1F3FD}', '\u200d', '\ufe0f', '\u0e33', 'ก', '\u1100', '\u1161', '\u0600', '\u{1F1EB}', '\u{1F1F7}', '─', '▲'];
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + random(12) }, () => alphabet[random(alphabet.length)]!).join('');
      const cells = parseLine(text).cells.map((cell) => [cell.text, cell.width]);
      expect(cells, JSON.stringify(text)).toEqual(slow(text));
    }
  });

  it('endStyle: the state a whole line leaves set', () => {
    expect(endStyle(`${sgr('31')}a${sgr('39')}`, DEFAULT_STYLE).key).toBe('');
    expect(endStyle(`${sgr('33')}a`, DEFAULT_STYLE).key).toBe('33');
    expect(endStyle('a', styleOf('1')).key).toBe('1');
  });
});

describe('applySgr', () => {
  it('sets and ends attributes; 22 ends bold and dim both, 25 both blinks', () => {
    expect(styleOf('1;2;3;5;6;7;8;9;53').key).toBe('1;2;3;5;6;7;8;9;53');
    expect(styleOf('1;2;3', '22').key).toBe('3');
    expect(styleOf('5;6;7', '25;27').key).toBe('');
    expect(styleOf('3;8;9;53', '23;28;29;55').key).toBe('');
  });

  it('a reset, an empty parameter and an empty sequence all end everything', () => {
    expect(styleOf('1;31;44', '0').key).toBe('');
    expect(styleOf('1;31;44', '').key).toBe('');
    expect(styleOf('1;31', ';4').key).toBe('4');
  });

  it('colours: the 16, 256 and direct forms, with semicolons or colons; a later one replaces', () => {
    expect(styleOf('31').fg).toBe('31');
    expect(styleOf('91').fg).toBe('91');
    expect(styleOf('38;5;208').fg).toBe('38;5;208');
    expect(styleOf('38;2;1;2;3;1').key).toBe('1;38;2;1;2;3');
    expect(styleOf('38:2::1:2:3').fg).toBe('38:2::1:2:3');
    expect(styleOf('44;48;5;236').bg).toBe('48;5;236');
    expect(styleOf('104').bg).toBe('104');
    expect(styleOf('58;5;1').underlineColor).toBe('58;5;1');
    expect(styleOf('31;44;58;5;1', '39;49;59').key).toBe('');
  });

  it('underline styles, and 24 or 4:0 end them', () => {
    expect(styleOf('4').underline).toBe('4');
    expect(styleOf('4:3').underline).toBe('4:3');
    expect(styleOf('21').underline).toBe('21');
    expect(styleOf('4:3', '24').underline).toBe('');
    expect(styleOf('4', '4:0').underline).toBe('');
  });

  it('codes it does not know are kept, in order, until a reset', () => {
    expect(styleOf('1;73', '10').key).toBe('1;73;10');
    expect(styleOf('73', '0').key).toBe('');
  });

  it('a colour cut short ends its sequence, and makes its line opaque: to be written whole', () => {
    expect(styleOf('31', '38;5;1').key).toBe('38;5;1');
    expect(styleOf('31', '38;5').key).not.toBe(styleOf('31').key);
    expect(parseLine(`a${sgr('48;2;1;2')}b${sgr('0')}c`).opaque).toBe(true);
    expect(parseLine(`a${sgr('48;2;1;2;3')}b${sgr('0')}c`).opaque).toBe(false);
  });
});

describe('styleChange', () => {
  it('from an unknown state: a reset and the whole state', () => {
    expect(styleChange(undefined, styleOf('1;31'))).toBe(sgr('0;1;31'));
    expect(styleChange(undefined, DEFAULT_STYLE)).toBe(sgr('0'));
  });

  it('nothing when the state is already in force; from the default, the state alone', () => {
    expect(styleChange(styleOf('31'), styleOf('31'))).toBe('');
    expect(styleChange(DEFAULT_STYLE, styleOf('1;32'))).toBe(sgr('1;32'));
  });

  it('what changed, when that is shorter than a reset', () => {
    expect(styleChange(styleOf('32'), styleOf('31'))).toBe(sgr('31'));
    expect(styleChange(styleOf('1;32'), styleOf('1;31'))).toBe(sgr('31'));
    expect(styleChange(styleOf('1;2;32'), styleOf('2;32'))).toBe(sgr('22;2'));
    expect(styleChange(styleOf('31'), DEFAULT_STYLE)).toBe(sgr('0'));
    expect(styleChange(styleOf('1;3;4;31'), styleOf('32'))).toBe(sgr('0;32'));
  });

  it('codes it does not know can only be ended by a reset', () => {
    expect(styleChange(styleOf('73;31'), styleOf('31'))).toBe(sgr('0;31'));
  });

  it('gives the same answer asked again, between states made afresh as between kept ones', () => {
    const pairs = [['1;31', '2'], ['4:3;92', '0'], ['38;5;208', '38;5;208;1'], ['7', '27']] as const;
    for (const [a, b] of pairs) {
      const first = styleChange(styleOf(a), styleOf(b));
      expect(styleChange(styleOf(a), styleOf(b))).toBe(first);
      // States that are not the kept objects (copies) get the same text.
      expect(styleChange({ ...styleOf(a) }, { ...styleOf(b) })).toBe(first);
    }
  });

  it('whatever it writes takes the terminal to exactly the state asked for', () => {
    const pieces = ['1', '2', '3', '4', '4:3', '5', '7', '8', '9', '53', '31', '92', '38;5;208', '38;2;1;2;3', '44', '48;5;236', '58;5;1', '73'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n); // the high bits: the low ones of this generator repeat
    };
    const randomStyle = () => styleOf(Array.from({ length: random(4) }, () => pieces[random(pieces.length)]!).join(';'));
    for (let i = 0; i < 2000; i++) {
      const from = randomStyle();
      const to = randomStyle();
      const change = styleChange(from, to);
      const reached = [...change.matchAll(/\u001b\[([0-9;:]*)m/g)].reduce((state, match) => applySgr(state, match[1]!), from);
      expect(reached.key, `${from.key} -> ${to.key} by ${JSON.stringify(change)}`).toBe(to.key);
    }
  });
});

describe('changedSpan', () => {
  const span = (before: string, after: string) => changedSpan(parseLine(before), parseLine(after));

  it('undefined when the two show the same, however their styles are spelled', () => {
    expect(span('abc', 'abc')).toBeUndefined();
    expect(span(`${sgr('31')}a${sgr('39')}b`, `${sgr('31')}a${sgr('0')}${sgr('1')}${sgr('22')}b`)).toBeUndefined();
  });

  it('from the first to the last column that differs', () => {
    expect(span('price 187.42 vol', 'price 188.07 vol')).toEqual({ column: 8, first: 8, end: 12, endColumn: 12, erase: false });
  });

  it('a change of colour alone is a change', () => {
    expect(span(`ab${sgr('32')}cd${sgr('39')}ef`, `ab${sgr('31')}cd${sgr('39')}ef`)).toEqual({ column: 2, first: 2, end: 4, endColumn: 4, erase: false });
  });

  it('a longer line: up to its end; a shorter one: to its end, and the rest erased', () => {
    expect(span('abc', 'abcde')).toEqual({ column: 3, first: 3, end: 5, endColumn: 5, erase: false });
    expect(span('abcde', 'abX')).toEqual({ column: 2, first: 2, end: 3, endColumn: 3, erase: true });
    expect(span('abcde', 'ab')).toEqual({ column: 2, first: 2, end: 2, endColumn: 2, erase: true });
    expect(span('abc', '')).toEqual({ column: 0, first: 0, end: 0, endColumn: 0, erase: true });
  });

  it('never starts or ends inside a wide character', () => {
    // 中 at columns 2-3 becomes x中 at 2-4: the change starts at column 2, a cell of both lines.
    expect(span('ab中de', 'abx中e')).toEqual({ column: 2, first: 2, end: 4, endColumn: 5, erase: false });
    // Only column 3 differs in text terms (the second half of 中 against c), but 中 is written whole.
    expect(span('ab中de', 'abXcde')).toEqual({ column: 2, first: 2, end: 4, endColumn: 4, erase: false });
    // Two narrow cells over one wide: both, and the wide one after them unchanged is left alone.
    expect(span('aXY文', 'a中文')).toEqual({ column: 1, first: 1, end: 2, endColumn: 3, erase: false });
    const emoji = span('ok 😀 done', 'ok 🚀 done');
    expect(emoji).toEqual({ column: 3, first: 3, end: 4, endColumn: 5, erase: false });
  });

  it('lines of marks alone, no columns drawn: their one cell', () => {
    expect(span('\u0301', '\u0300')).toEqual({ column: 0, first: 0, end: 1, endColumn: 0, erase: false });
    expect(span('ab', '\u0300')).toEqual({ column: 0, first: 0, end: 1, endColumn: 0, erase: true });
  });

  it('a mark added to a character changes that character’s cell', () => {
    expect(span('cafe!', 'cafe\u0301!')).toEqual({ column: 3, first: 3, end: 4, endColumn: 4, erase: false });
  });
});

describe('drawCells', () => {
  it('the cells’ text with the state changes between them, from the state given', () => {
    const line = parseLine(`a${sgr('31')}bc${sgr('1')}d${sgr('0')}e`);
    expect(drawCells(line, 1, 5, DEFAULT_STYLE)).toEqual({ text: `${sgr('31')}bc${sgr('1')}d${sgr('0')}e`, style: DEFAULT_STYLE });
    expect(drawCells(line, 1, 3, styleOf('31')).text).toBe('bc');
    expect(drawCells(line, 0, 1, undefined).text).toBe(`${sgr('0')}a`);
    expect(drawCells(line, 2, 2, undefined)).toEqual({ text: '', style: undefined });
  });
});

describe('changedRuns', () => {
  const runsOf = (before: string, after: string, gap = 8) => {
    const previous = parseLine(before);
    const next = parseLine(after);
    const span = changedSpan(previous, next)!;
    return changedRuns(previous, next, span, gap).map((run) => ({ column: run.column, text: next.cells.slice(run.first, run.end).map((c) => c.text).join('') }));
  };

  it('writes two changes far apart as two runs, jumping over the unchanged columns between', () => {
    const before = `AAPL  210.00 ${' '.repeat(40)}▲0.15  5s`;
    const after = `AAPL  211.25 ${' '.repeat(40)}▲1.40  1s`;
    expect(runsOf(before, after)).toEqual([
      { column: 8, text: '1.25' },
      { column: 54, text: '1.40  1' },
    ]);
  });

  it('keeps changes closer than the gap in one run (a jump would cost more than the cells)', () => {
    expect(runsOf('ab cd ef', 'xb cd ey')).toEqual([{ column: 0, text: 'xb cd ey' }]);
    expect(runsOf('ab cd ef', 'xb cd ey', 3)).toEqual([
      { column: 0, text: 'x' },
      { column: 7, text: 'y' },
    ]);
  });

  it('starts a run on a whole wide character, never inside one', () => {
    expect(runsOf(`陳美玲${' '.repeat(20)}x`, `陳美月${' '.repeat(20)}y`)).toEqual([
      { column: 4, text: '月' },
      { column: 26, text: 'y' },
    ]);
  });
});
