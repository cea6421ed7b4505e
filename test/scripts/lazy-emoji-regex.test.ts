// string-width with its RGI_Emoji regex built on first use (scripts/lazy-emoji-regex.mjs): the
// same widths as string-width itself, emoji and all, and no such literal left in the bundle for
// V8 to check as the chunk is compiled at start.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { lazyEmojiRegex } from '../../scripts/lazy-emoji-regex.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TEXTS = ['', 'AAPL', '👍', 'Book club 📚', 'Thiago 🏄‍♂️ Santos', '👨‍👩‍👧', '#️⃣ 1️⃣', '🇯🇵', '陳美玲', 'e\u0301', '\u001b[31mred\u001b[39m 😀', '☺', '☺️'];

describe('lazyEmojiRegex', () => {
  it('measures as string-width does: run beside it, from its own directory', async () => {
    const file = createRequire(import.meta.url).resolve('string-width');
    const lazy = lazyEmojiRegex(readFileSync(file, 'utf8')) as string | undefined;
    expect(lazy).toBeDefined();
    expect(lazy).not.toMatch(/\/\^\\p\{RGI_Emoji\}\$\/v/);
    const copy = join(dirname(file), `index.lazy-test-${process.pid}.js`);
    writeFileSync(copy, lazy!);
    try {
      const { default: lazyWidth } = (await import(pathToFileURL(copy).href)) as { default: typeof stringWidth };
      for (const text of TEXTS) expect(lazyWidth(text), JSON.stringify(text)).toBe(stringWidth(text));
    } finally {
      rmSync(copy, { force: true });
    }
  });

  it('refuses a source it does not know, rather than ship it unchanged', () => {
    expect(lazyEmojiRegex('const x = 1;')).toBeUndefined();
  });

  it('leaves no RGI_Emoji literal in the built bundle', () => {
    const chunks = join(root, 'dist/bundle/chunks');
    const files = [...readdirSync(chunks).filter((file) => file.endsWith('.mjs')).map((file) => join(chunks, file)), join(root, 'dist/bundle/dashboard.cjs')];
    for (const file of files) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/\/\^\\p\{RGI_Emoji\}\$\/v/);
    }
  });
});
