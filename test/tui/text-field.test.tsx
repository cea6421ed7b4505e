// A text field's editing, as keys make it: the keys a terminal sends, named by the one parser and
// resolved by the keymap as the router resolves them, applied to a field's value and cursor by
// the pure field edits (field-text.ts) the owning reducers use. No terminal, no sleeps. Then the
// field as drawn (TextField only draws), and the same keys through the whole dashboard.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { FIELD_EDITS, resolveKey } from '../../src/tui/keys/keymap.js';
import { keyPresses, splitInput } from '../../src/tui/keys/terminal-input.js';
import { fieldAtEnd, fieldInput, type FieldText } from '../../src/tui/state/field-text.js';
import { mountInkDashboard } from '../helpers/ink-terminal.js';
import { setUpSandbox } from '../helpers/sandbox.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/**
 * `reads` typed into a rename field holding `field`, as the key router takes them: a key bound in
 * the field's scope is its command (a line edit, or none here), Backspace deletes, and the
 * characters typed in a row go in together.
 */
function typed(field: FieldText, reads: readonly string[], maxLength?: number): FieldText {
  let next = field;
  for (const read of reads) {
    let text = '';
    const flush = () => {
      if (text) next = fieldInput(next, { kind: 'type', text }, maxLength);
      text = '';
    };
    for (const key of splitInput(read).pieces.flatMap(keyPresses)) {
      const command = resolveKey(['contacts.rename'], key.name);
      if (command === undefined && key.text !== undefined) {
        text += key.text;
        continue;
      }
      flush();
      const edit = command && FIELD_EDITS[command];
      if (edit) next = fieldInput(next, { kind: 'edit', edit }, maxLength);
      else if (key.name === 'backspace') next = fieldInput(next, { kind: 'backspace' }, maxLength);
    }
    flush();
  }
  return next;
}

const value = (start: string, reads: readonly string[], maxLength?: number) => typed(fieldAtEnd(start), reads, maxLength).value;

describe('editing a field with the keys a terminal sends', () => {
  it('keeps every letter typed in separate reads', () => {
    expect(value('ab', ['c', 'd', 'e'])).toBe('abcde');
  });

  it('mid-line: arrows, a burst of letters and a backspace land at the cursor', () => {
    let field = typed(fieldAtEnd('abcd'), ['\u001b[D', '\u001b[D', 'x', 'y', '\u007f', 'z']);
    expect(field.value).toBe('abxzcd');
    field = typed(field, ['w']);
    expect(field.value).toBe('abxzwcd');
  });

  it('Home, End, Ctrl-A, Ctrl-E, Alt-B, Alt-F move the cursor; Delete, Ctrl-D and Ctrl-K delete at it; Backspace before it', () => {
    const steps: [string[], string][] = [
      [['\u001b[H', '>'], '>hello big world'], // Home
      [['\u001b[F', '<'], '>hello big world<'], // End
      [['\u0001', '\u001b[3~'], 'hello big world<'], // Ctrl-A, Delete
      [['\u001bf', '\u001bf', '_'], 'hello big_ world<'], // Alt-F twice: after "big"
      [['\u001bb', '\u001bb', '\u0004'], 'ello big_ world<'], // Alt-B twice: "hello"'s start; Ctrl-D
      [['\u0005', '\u007f'], 'ello big_ world'], // Ctrl-E, Backspace
      [['\u001bb', '\u000b'], 'ello big_ '], // Alt-B, Ctrl-K
      [['\u001b[1~', '\u0006', '\u0006', '[', '\u0002', '\u0002', ']'], 'e]l[lo big_ '], // Home (VT), Ctrl-F, Ctrl-B
      [['\u001bOH', '\u001b[4~', '!'], 'e]l[lo big_ !'], // Home (SS3), End (VT)
      [['\u001b[3;2~', '\u001b[H', '\u001b[3;5~'], ']l[lo big_ !'], // Shift-Delete at the end deletes nothing; Ctrl-Delete at the start
    ];
    let field = fieldAtEnd('hello big world');
    for (const [keys, expected] of steps) {
      field = typed(field, keys);
      expect(field.value, JSON.stringify(keys)).toBe(expected);
    }
  });

  it('at its limit a field keeps what fits where the cursor is, even when it repeats the text around it', () => {
    // The cursor after "Ann ", then "Lee Ann" typed in one read: only "Lee" fits.
    let field = typed(fieldAtEnd('Ann Lee'), ['\u001b[D', '\u001b[D', '\u001b[D', 'Lee Ann'], 10);
    expect(field.value).toBe('Ann LeeLee');
    field = typed(field, ['x'], 10);
    expect(field.value).toBe('Ann LeeLee');
    // Room again: the cursor is where the fitted text ended.
    expect(typed(field, ['\u007f', 'y'], 10).value).toBe('Ann LeyLee');
  });

  it('an arrow key and letters in one read: the letters go where the arrow put the cursor', () => {
    expect(value('abc', ['\u001b[Dxy'])).toBe('abxyc');
  });

  it('the cursor steps over an emoji whole: two Lefts from the end and typing put the text before it', () => {
    expect(value('a📚b', ['\u001b[D', '\u001b[D', 'x'])).toBe('ax📚b');
  });

  it('Backspace after an emoji removes all of it, never half', () => {
    const field = typed(fieldAtEnd('hi 📚'), ['\u007f']);
    expect(field.value).toBe('hi ');
    expect(typed(field, ['x']).value).toBe('hi x');
  });

  it('a letter and its mark typed in one read are one character: one Left steps over both', () => {
    expect(value('', ['e\u0301', '\u001b[D', 'x'])).toBe('xe\u0301');
  });

  it('Ctrl and Alt chords never type their letter; controls in a read are keys, never text', () => {
    expect(value('ab', ['\u001bx', '\u0018', '\u001b[121;5u', 'c'])).toBe('abc');
    expect(value('ab', ['c\u0015d'])).toBe('d');
  });
});

describe('TextField draws what its state holds', () => {
  it('the cursor in inverse video, on the character it is before, whatever the colour level', () => {
    const at = (cursor: number) => render(<TextField value="ab" cursor={cursor} focus width={12} />).lastFrame() ?? '';
    expect(at(2)).toContain('ab\u001b[7m \u001b[27m');
    expect(at(1)).toContain('a\u001b[7mb\u001b[27m');
  });

  it('a value longer than the field scrolls on one line, the cursor in view, and moves no further than the cursor and its width make it', () => {
    const long = 'abcdefghijklmnopqrstuvwxyz0123';
    const view = render(<TextField value={long} cursor={long.length} focus width={12} />);
    const line = () => (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]!;
    // The last 11 characters and the cursor after them.
    expect(line()).toBe('tuvwxyz0123 ');
    // Three to the left: no cell after the end is needed, and the window fills its width with the value.
    view.rerender(<TextField value={long} cursor={long.length - 3} focus width={12} />);
    expect(line()).toBe('stuvwxyz0123');
    // To the start: the window follows.
    view.rerender(<TextField value={long} cursor={0} focus width={12} />);
    expect(line()).toBe('abcdefghijkl');
    // A piece of the value, the field's width.
    view.rerender(<TextField value={long} cursor={5} focus width={12} />);
    expect(line()).toBe('abcdefghijkl');
  });
});

// Through the whole dashboard: keys in separate reads, each handled as it is read, reach the
// rename field's state in order.
describe('Ctrl-U and Ctrl-W in a field, keys in separate reads', () => {
  const ctx = setUpSandbox();

  async function renaming(name: string) {
    const mounted = await mountInkDashboard(ctx.client);
    cleanup = mounted.unmount;
    await mounted.keyboard.type('e', '\u0015', name);
    await mounted.until((f) => f.includes(`✎ ${name}`), 'the name to rename from');
    return mounted;
  }

  it('Ctrl-U then typing: the field holds only what was typed after it', async () => {
    const f = await renaming('bank');
    await f.keyboard.type('\u0015', 'appl');
    await f.until((frame) => frame.includes('✎ appl'), 'only what came after Ctrl-U');
    await f.keyboard.type('e');
    await f.until((frame) => frame.includes('✎ apple'), 'the next letter after it');
    expect(f.frame()).not.toContain('bank');
  });

  it('Ctrl-W then typing replaces the last word', async () => {
    const f = await renaming('new york');
    await f.keyboard.type('\u0017', 'jersey');
    await f.until((frame) => frame.includes('✎ new jersey'), 'the last word replaced');
    expect(f.frame()).not.toContain('york');
  });
});
