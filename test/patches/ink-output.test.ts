// patches/ink+8.0.0.patch, Ink's frame output (docs/patches.md): one set of caches kept from each
// frame to the next (what this frame and the last one used), one blank cell for every empty cell,
// and a row's text kept while the same lines are written to it at the same columns. Frames drawn
// one after another through Ink's Output, as a dashboard redraws, must be what Ink 8.0.0
// unpatched draws: the expected texts were taken from it, scene by scene. And what the caches hold stays two frames' worth.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface Output {
  write(x: number, y: number, text: string, options: { transformers: ((line: string, index: number) => string)[] }): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
  caches: Record<'widths' | 'blockWidths' | 'styledChars' | 'lines' | 'slices', { current: Map<string, unknown>; previous: Map<string, unknown> }>;
}
type OutputClass = new (options: { width: number; height: number }) => Output;

const inkBuild = dirname(createRequire(import.meta.url).resolve('ink'));
const load = async (): Promise<OutputClass> =>
  ((await import(pathToFileURL(join(inkBuild, 'output.js')).href)) as { default: OutputClass }).default;

const red = (text: string) => `\u001b[31m${text}\u001b[39m`;
const inverse = (text: string) => `\u001b[7m${text}\u001b[27m`;
const plain = { transformers: [] };

const SCENES: ((output: Output) => void)[] = [
  (o) => {
    o.write(0, 0, `AAPL ${red('209.14')} ▲`, plain);
    o.write(0, 1, 'MSFT 410.00', plain);
  },
  // The same text with one cell changed; the same row text in another style.
  (o) => {
    o.write(0, 0, `AAPL ${red('209.15')} ▲`, plain);
    o.write(0, 1, inverse('MSFT 410.00'), plain);
  },
  // A style carried across an explicit newline; wide characters.
  (o) => {
    o.write(1, 0, red('one\ntwo'), plain);
    o.write(0, 2, '陳美玲 김민지', plain);
  },
  // A clip through wide characters at both edges.
  (o) => {
    o.clip({ x1: 1, x2: 6, y1: 0, y2: 3 });
    o.write(0, 0, '陳美玲 김민지', plain);
    o.write(0, 1, red('陳美玲'), plain);
    o.unclip();
  },
  // Half of a wide character drawn over; a transformer.
  (o) => {
    o.write(0, 0, '陳美玲', plain);
    o.write(1, 0, 'x', plain);
    o.write(0, 1, 'ab', { transformers: [(line) => inverse(line)] });
  },
  // The first scene again, from what the caches kept, then with a row gone.
  (o) => {
    o.write(0, 0, `AAPL ${red('209.14')} ▲`, plain);
    o.write(0, 1, 'MSFT 410.00', plain);
  },
  (o) => {
    o.write(0, 0, `AAPL ${red('209.14')} ▲`, plain);
  },
  // The clip again, from the slices the caches kept.
  (o) => {
    o.clip({ x1: 1, x2: 6, y1: 0, y2: 3 });
    o.write(0, 0, '陳美玲 김민지', plain);
    o.write(0, 1, red('陳美玲'), plain);
    o.unclip();
  },
];

/** What Ink 8.0.0 unpatched draws for each scene, in turn. */
const UNPATCHED = [
    "AAPL \u001b[31m209.14\u001b[39m \u25b2\nMSFT 410.00\n",
    "AAPL \u001b[31m209.15\u001b[39m \u25b2\n\u001b[7mMSFT 410.00\u001b[27m\n",
    " \u001b[31mone\u001b[39m\n \u001b[31mtwo\u001b[39m\n\u9673\u7f8e\u73b2 \uae40\ubbfc\uc9c0",
    "  \u7f8e\u73b2\n \u001b[31m \u7f8e\u73b2\u001b[39m\n",
    " x\u7f8e\u73b2\n\u001b[7mab\u001b[27m\n",
    "AAPL \u001b[31m209.14\u001b[39m \u25b2\nMSFT 410.00\n",
    "AAPL \u001b[31m209.14\u001b[39m \u25b2\n\n",
    "  \u7f8e\u73b2\n \u001b[31m \u7f8e\u73b2\u001b[39m\n",
];

describe("Ink's frame output, patched", () => {
  it('draws each frame as Ink unpatched does, one after another', async () => {
    const Output = await load();
    const drawn = SCENES.map((scene) => {
      const output = new Output({ width: 12, height: 3 });
      scene(output);
      return output.get().output;
    });
    expect(drawn).toEqual(UNPATCHED);
  });

  it('draws a row again when the same writes land on a screen of another width, or in another order', async () => {
    const Output = await load();
    // A write past the frame's width leaves unwritten cells between, which Ink's row text skips:
    // the same writes make another row at another width. Later writes cover earlier ones.
    const frames: [number, (output: Output) => void][] = [
      [12, (o) => (o.write(8, 0, 'x', plain), o.write(0, 1, red('ab'), plain))],
      [5, (o) => (o.write(8, 0, 'x', plain), o.write(0, 1, red('ab'), plain))],
      [12, (o) => (o.write(8, 0, 'x', plain), o.write(0, 1, red('ab'), plain), o.write(1, 1, 'Z', plain))],
      [12, (o) => (o.write(8, 0, 'x', plain), o.write(1, 1, 'Z', plain), o.write(0, 1, red('ab'), plain))],
    ];
    const drawn = frames.map(([width, scene]) => {
      const output = new Output({ width, height: 2 });
      scene(output);
      return output.get().output;
    });
    // What Ink 8.0.0 unpatched draws for each, in turn.
    expect(drawn).toEqual(['        x\n\u001b[31mab\u001b[39m', '     x\n\u001b[31mab\u001b[39m', '        x\n\u001b[31ma\u001b[39mZ', '        x\n\u001b[31mab\u001b[39m']);
  });

  it('keeps what this frame and the last one used, nothing older', async () => {
    const Output = await load();
    for (let frame = 0; frame < 50; frame++) {
      const output = new Output({ width: 40, height: 10 });
      for (let row = 0; row < 10; row++) output.write(0, row, `frame ${frame} row ${row} ${red(String(frame * row))}`, plain);
      output.get();
    }
    const output = new Output({ width: 40, height: 10 });
    for (const cache of Object.values(output.caches)) {
      // A new frame: nothing of its own yet, the last frame's 10 rows (and their pieces) kept.
      expect(cache.current.size).toBe(0);
      expect(cache.previous.size).toBeLessThanOrEqual(40);
    }
    expect(output.caches.styledChars.previous.has(`frame 49 row 9 ${red('441')}`)).toBe(true);
    expect(output.caches.styledChars.previous.has(`frame 48 row 9 ${red('432')}`)).toBe(false);
  });
});
