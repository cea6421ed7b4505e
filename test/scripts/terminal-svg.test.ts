// The screen as SVG (scripts/terminal-svg.ts, which draws the README's pictures): the cells'
// characters where the terminal put them, in their colours and attributes, as few elements as the
// runs of one look allow, and a document that is well-formed whatever the text holds.
import { describe, expect, it } from 'vitest';
import { paletteColour, terminalSvg } from '../../scripts/terminal-svg.js';
import type { StyledCell } from '../bench/pty-app.js';
import { parseSvg, svgScreen } from '../helpers/svg-document.js';

const plain: Omit<StyledCell, 'text' | 'width'> = {
  fg: undefined,
  bg: undefined,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  invisible: false,
};

/** One cell per character of `text`, all looking like `look`. */
const cells = (text: string, look: Partial<StyledCell> = {}): StyledCell[] => [...text].map((char) => ({ ...plain, text: char, width: 1, ...look }));

const draw = (rows: StyledCell[][], title = 'a screen') => parseSvg(terminalSvg(rows, { title }));
const texts = (rows: StyledCell[][]) => draw(rows).filter((e) => e.name === 'text');
const rects = (rows: StyledCell[][]) => draw(rows).filter((e) => e.name === 'rect').slice(1);

describe('terminalSvg', () => {
  it('escapes & < > and " in the text and the title, and reads back as the screen it was', () => {
    const rows = [cells('a<b> & "c"'), cells(' </svg>')];
    const document = terminalSvg(rows, { title: 'x < y & "z"' });
    expect(document).toContain('a&lt;b&gt; &amp; &quot;c&quot;');
    const elements = parseSvg(document);
    expect(elements.find((e) => e.name === 'title')?.text).toBe('x < y & "z"');
    expect(elements[0]!.attributes['aria-label']).toBe('x < y & "z"');
    expect(svgScreen(elements)).toEqual(['a<b> & "c"', ' </svg>']);
  });

  it('draws a run of one look as one <text> fitted to its cells, across a few blanks but not a wide gap', () => {
    const row = [...cells('ab  cd'), ...cells('     '), ...cells('ef')];
    expect(texts([row]).map((e) => [e.text, e.attributes.x, e.attributes.textLength])).toEqual([
      ['ab  cd', '6', '36'],
      ['ef', '72', '12'],
    ]);
    // Blanks start nothing, and a run ends at its last character.
    expect(texts([cells('   x   ')]).map((e) => [e.text, e.attributes.x])).toEqual([['x', '24']]);
  });

  it('starts a new run where the look changes, one class per look', () => {
    const rows = [[...cells('up', { fg: 2 }), ...cells('down', { fg: 1, bold: true }), ...cells('up', { fg: 2 })]];
    const [a, b, c] = texts(rows);
    expect([a!.text, b!.text, c!.text]).toEqual(['up', 'down', 'up']);
    expect(a!.attributes.class).toBe(c!.attributes.class);
    expect(b!.attributes.class).not.toBe(a!.attributes.class);
    const css = draw(rows).find((e) => e.name === 'style')!.text;
    // Bold makes the first eight colours bright, as xterm.js draws them.
    expect(css).toContain(`.${b!.attributes.class}{fill:${paletteColour(9)};font-weight:bold}`);
    expect(css).toContain(`.${a!.attributes.class}{fill:${paletteColour(2)}}`);
  });

  it('draws a background run as one <rect>, and inverse video as the default colours swapped', () => {
    const rows = [[...cells('ab'), ...cells('sel', { inverse: true }), ...cells('x', { bg: '#102030' })]];
    expect(rects(rows).map((e) => [e.attributes.x, e.attributes.width, e.attributes.fill])).toEqual([
      ['18', '18', '#d3d7cf'],
      ['36', '6', '#102030'],
    ]);
    const selected = texts(rows).find((e) => e.text === 'sel')!;
    expect(draw(rows).find((e) => e.name === 'style')!.text).toContain(`.${selected.attributes.class}{fill:#1d1f21}`);
  });

  it('gives a wide character its two cells', () => {
    const wide: StyledCell[] = [{ ...plain, text: '中', width: 2 }, { ...plain, text: '', width: 0 }];
    expect(texts([[...wide, ...cells('x')]]).map((e) => [e.text, e.attributes.textLength])).toEqual([['中x', '18']]);
    expect(texts([[...cells('x'), ...wide, ...cells('|', { fg: 1 })]]).map((e) => [e.text, e.attributes.x, e.attributes.textLength])).toEqual([
      ['x中', '6', '18'],
      ['|', '24', '6'],
    ]);
  });

  it('draws palette colours as xterm does: 16 ANSI, the 6x6x6 cube, 24 greys', () => {
    expect([16, 196, 231, 232, 255].map(paletteColour)).toEqual(['#000000', '#ff0000', '#ffffff', '#080808', '#eeeeee']);
  });
});
