// patches/string-width+8.3.0.patch: string-width builds its \p{RGI_Emoji} regex when first asked
// (docs/patches.md). The widths are string-width's own, emoji and all: these are what the package
// unpatched answers; and the bundle holds no such literal for V8 to check as a chunk is compiled.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RGI_LITERAL = /\/\^\\p\{RGI_Emoji\}\$\/v/;

describe('string-width, patched', () => {
  it.each([
    ['', 0],
    ['AAPL', 4],
    ['👍', 2],
    ['Book club 📚', 12],
    ['Thiago 🏄‍♂️ Santos', 16],
    ['👨‍👩‍👧', 2],
    ['#️⃣ 1️⃣', 5],
    ['🇯🇵', 2],
    ['陳美玲', 6],
    ['e\u0301', 1],
    ['\u001b[31mred\u001b[39m 😀', 6],
    ['☺', 1],
    ['☺️', 2],
  ])('%j is %i columns, as unpatched', (text, width) => {
    expect(stringWidth(text)).toBe(width);
  });

  it('is the patched package: no RGI_Emoji literal in it, nor in the built bundle', () => {
    const file = createRequire(import.meta.url).resolve('string-width');
    expect(readFileSync(file, 'utf8')).not.toMatch(RGI_LITERAL);
    const chunks = join(root, 'dist/bundle/chunks');
    const files = [...readdirSync(chunks).filter((name) => name.endsWith('.mjs')).map((name) => join(chunks, name)), join(root, 'dist/bundle/dashboard.cjs')];
    for (const bundled of files) expect(readFileSync(bundled, 'utf8'), bundled).not.toMatch(RGI_LITERAL);
  });
});
