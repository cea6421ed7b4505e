// The bounded stand-ins for Ink's text caches: the same answers as Ink's own modules, a bound
// that holds however many distinct texts go through, and a bundle that really uses them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureText, rememberSanitized, TEXT_CACHE_SIZE, textCacheSizes, wrapText, type WrapType } from '../../src/tui/ink-text-caches.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
type InkMeasure = (text: string) => { width: number; height: number };
type InkWrap = (text: string, maxWidth: number, wrapType: string) => string;
const inkMeasure = ((await import(join(root, 'node_modules/ink/build/measure-text.js'))) as { default: InkMeasure }).default;
const inkWrap = ((await import(join(root, 'node_modules/ink/build/wrap-text.js'))) as { default: InkWrap }).default;
const inkSanitize = ((await import(join(root, 'node_modules/ink/build/sanitize-ansi.js'))) as { default: (text: string) => string }).default;

const TEXTS = [
  '',
  'AAPL',
  '  210.00  ▲1.25',
  '陳美玲 and 김민지',
  'Thiago Santos 🏄',
  'line one\nline two is longer\n3',
  '\u001b[1mbold\u001b[22m and \u001b[31mred\u001b[39m text that runs on past the width',
  'e\u0301 combining and zero\u200bwidth',
  'a'.repeat(300),
];
const WRAPS: WrapType[] = ['wrap', 'truncate', 'truncate-end', 'truncate-middle', 'truncate-start', 'end', 'middle'];

describe('the bounded text caches', () => {
  it('measure and wrap exactly as Ink does', () => {
    for (const text of TEXTS) {
      expect(measureText(text), JSON.stringify(text)).toEqual(inkMeasure(text));
      for (const type of WRAPS) {
        for (const width of [1, 5, 12, 40]) {
          expect(wrapText(text, width, type), `${JSON.stringify(text)} ${type} ${width}`).toBe(inkWrap(text, width, type));
        }
      }
    }
  });

  it('keep at most twice TEXT_CACHE_SIZE texts, however many distinct ones are drawn, and the latest stay cached', () => {
    // A week of prices and ages: far more distinct texts than the bound.
    const count = TEXT_CACHE_SIZE * 10 + 1;
    const text = (i: number) => `AAPL ${(100 + i / 100).toFixed(2)} ${i}s`;
    for (let i = 0; i < count; i++) {
      measureText(text(i));
      wrapText(text(i), 20, 'truncate');
    }
    const sizes = textCacheSizes();
    expect(sizes.measured).toBeLessThanOrEqual(TEXT_CACHE_SIZE * 2);
    expect(sizes.wrapped).toBeLessThanOrEqual(TEXT_CACHE_SIZE * 2);
    // The most recent texts are answered from the cache: the very same object comes back.
    for (let i = count - TEXT_CACHE_SIZE + 1; i < count; i++) expect(measureText(text(i))).toBe(measureText(text(i)));
  });

  it('tell apart texts that Ink’s own key ran together with the width', () => {
    // Ink keyed "a1" at width 1 and "a" at width 11 alike ("a11wrap"): one could get the other's answer.
    expect(wrapText('ab1', 1, 'wrap')).toBe('a\nb\n1');
    expect(wrapText('ab', 11, 'wrap')).toBe('ab');
  });
});

describe("Ink's sanitising, remembered", () => {
  it("answers as Ink's does, the first time and again, and asks it once a text that needs it", () => {
    const texts = [...TEXTS, '\u001b[2Jcleared\u001b[H', 'a\u001b]8;;https://x\u0007link\u001b]8;;\u0007', '\u009b31mC1\u001b[1;31mok\u001b[0m', '\u001b[38:2::1:2:3mcolon'];
    let asked = 0;
    const sanitize = rememberSanitized((text) => {
      asked++;
      return inkSanitize(text);
    });
    for (let round = 0; round < 3; round++) for (const text of texts) expect(sanitize(text), JSON.stringify(text)).toBe(inkSanitize(text));
    // Once for each text holding ESC or a C1 control; a text with neither is its own answer, never asked.
    expect(asked).toBe(new Set(texts.filter((text) => /[\u001b\u0080-\u009f]/.test(text))).size);
    expect(asked).toBeGreaterThan(3);
  });
});

describe('the bundled dashboard', () => {
  it("compares an element's props with the reconciler's edits (RECONCILER_EDITS), in the script and in the chunk alike", () => {
    const chunks = join(root, 'dist/bundle/chunks');
    const chunk = readdirSync(chunks).find((name) => /^dashboard-.*\.mjs$/.test(name));
    expect(chunk, 'the dashboard chunk (npm run build)').toBeDefined();
    for (const path of [join(chunks, chunk!), join(root, 'dist/bundle/dashboard.cjs')]) {
      // commitUpdate's loop over the changed props, as edited (minified names aside).
      expect(readFileSync(path, 'utf8'), path).toMatch(/for\(let (\w+) in (\w+)\)\{if\(!Object\.hasOwn\(\2,\1\)\)continue;/);
    }
  });


  it('lays text out with the bounded caches, not Ink’s unbounded ones', () => {
    const chunks = join(root, 'dist/bundle/chunks');
    const map = readdirSync(chunks).find((name) => /^dashboard-.*\.mjs\.map$/.test(name));
    expect(map, 'the dashboard chunk and its source map (npm run build)').toBeDefined();
    // The dashboard runs from the script (dist/bundle/dashboard.cjs); the chunk serves `node dist/bundle/tickbook.mjs`.
    for (const path of [join(chunks, map!), join(root, 'dist/bundle/dashboard.cjs.map')]) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourcesContent: string[] };
      expect(sources.some((s) => s.endsWith('src/tui/ink-text-caches.ts')), path).toBe(true);
      // Where Ink's two modules are still named (the script keeps each module's place), they hold
      // only the line that hands over to the bounded caches.
      const inks = sources.flatMap((s, i) => (/node_modules\/ink\/build\/(measure|wrap)-text\.js$/.test(s) ? [sourcesContent[i]] : []));
      for (const content of inks) expect(content, path).toMatch(/^export \{ (measureText|wrapText) as default \} from ".*src\/tui\/ink-text-caches\.ts";$/);
    }
  });
});
