// Text typed in one read arrives as text, in order, whatever it looks like: only bytes that follow
// ESC can form an escape sequence. "Ol" (the tail of SS3 l), "[x", "[1~" or "OR" typed fast, on a
// slow link or pasted are letters. Real Ink behind the terminal reader, as runDashboard wires it.
import { afterEach, describe, expect, it } from 'vitest';
import { keyPresses, splitInput } from '../../src/tui/keys/terminal-input.js';
import { mountInkDashboard } from '../helpers/ink-terminal.js';
import { setUpSandbox } from '../helpers/sandbox.js';
describe('keyPresses: text that looks like the tail of a sequence is text', () => {
  it.each(['Ol', 'OR', '[x', '[1~', '[A', 'OP'])('%s is its characters', (text) => {
    expect(splitInput(text).pieces.flatMap(keyPresses)).toEqual([...text].map((char) => ({ name: char, text: char })));
  });
});

describe('typed in one read, in a field of the dashboard', () => {
  const ctx = setUpSandbox();
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  async function mount() {
    const mounted = await mountInkDashboard(ctx.client);
    cleanup = mounted.unmount;
    return mounted;
  }

  it('the filter: "f" then "Ol" in one read filters by "Ol"', async () => {
    const f = await mount();
    await f.keyboard.type('f', 'Ol');
    await f.until((frame) => frame.includes('┃ / Ol ') && frame.includes('Lucas Oliveira'), 'the filter to hold Ol');
    expect(f.frame()).not.toContain('Amelia Hart');
  });

  it('the picker: "OR" then "CL" searches ORCL', async () => {
    const f = await mount();
    await f.keyboard.type('\t', 'i');
    await f.until((frame) => frame.includes('symbol or company name'), 'the picker');
    await f.keyboard.type('OR', 'CL');
    await f.until((frame) => frame.includes('ORCL'), 'the query ORCL');
    expect(f.frame()).not.toMatch(/Colgate/);
  });

  it('rename: "[x" and "[1~" pasted are text', async () => {
    const f = await mount();
    await f.keyboard.type('e', '\u0015', '[x', '[1~');
    await f.until((frame) => frame.includes('✎ [x[1~'), 'the pasted text in the field');
  });
});
