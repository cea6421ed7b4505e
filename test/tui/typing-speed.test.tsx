// Typing at full speed: 200 keys, text with Backspace, Ctrl-U, Ctrl-W, Ctrl-K, Delete, the arrows,
// Home/End and Alt-B/F mixed in, typed into rename, the create form and the picker's search at 60
// keys a second and all in one read, leave exactly the text a line editor would. The whole
// dashboard on a fake terminal, keys through the paced input as runDashboard feeds them; the
// expected text comes from a small line editor of this test's own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountInkDashboard, type InkDashboard } from '../helpers/ink-terminal.js';
import { setUpSandbox } from '../helpers/sandbox.js';

interface Key {
  /** What the terminal sends. */
  bytes: string;
  /** What a line editor does with it. */
  edit: (line: Line) => void;
}

interface Line {
  text: string[];
  at: number;
}

const isSpace = (c: string | undefined) => c === ' ';
const wordStart = (l: Line) => {
  let i = l.at;
  while (i > 0 && isSpace(l.text[i - 1])) i--;
  while (i > 0 && !isSpace(l.text[i - 1])) i--;
  return i;
};

const EDITS: Record<string, Key> = {
  backspace: { bytes: '\u007f', edit: (l) => l.at > 0 && (l.text.splice(l.at - 1, 1), l.at--) },
  delete: { bytes: '\u001b[3~', edit: (l) => void l.text.splice(l.at, 1) },
  left: { bytes: '\u001b[D', edit: (l) => void (l.at = Math.max(0, l.at - 1)) },
  right: { bytes: '\u001b[C', edit: (l) => void (l.at = Math.min(l.text.length, l.at + 1)) },
  ctrlB: { bytes: '\u0002', edit: (l) => void (l.at = Math.max(0, l.at - 1)) },
  home: { bytes: '\u001b[H', edit: (l) => void (l.at = 0) },
  end: { bytes: '\u001b[F', edit: (l) => void (l.at = l.text.length) },
  ctrlA: { bytes: '\u0001', edit: (l) => void (l.at = 0) },
  ctrlE: { bytes: '\u0005', edit: (l) => void (l.at = l.text.length) },
  ctrlK: { bytes: '\u000b', edit: (l) => void l.text.splice(l.at) },
  ctrlU: { bytes: '\u0015', edit: (l) => void (l.text.splice(0, l.at), (l.at = 0)) },
  ctrlW: {
    bytes: '\u0017',
    edit: (l) => {
      const from = wordStart(l);
      l.text.splice(from, l.at - from);
      l.at = from;
    },
  },
  altB: { bytes: '\u001bb', edit: (l) => void (l.at = wordStart(l)) },
  altF: {
    bytes: '\u001bf',
    edit: (l) => {
      let i = l.at;
      while (i < l.text.length && isSpace(l.text[i])) i++;
      while (i < l.text.length && !isSpace(l.text[i])) i++;
      l.at = i;
    },
  },
};

/**
 * 200 keys, the same for every run (a fixed seed): mostly letters, an edit every few, the text
 * kept under `longest` characters (so every key is one the field takes, and the end shows whole).
 */
function script(letters: string, longest: number, seed: number): Key[] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const line: Line = { text: [], at: 0 };
  const keys: Key[] = [];
  const edits = Object.values(EDITS);
  while (keys.length < 200) {
    const key: Key =
      next(10) < 6 && line.text.length < longest
        ? (() => {
            const char = letters[next(letters.length)]!;
            return { bytes: char, edit: (l: Line) => void (l.text.splice(l.at, 0, char), l.at++) };
          })()
        : edits[next(edits.length)]!;
    key.edit(line);
    keys.push(key);
  }
  return keys;
}

/** The text the keys leave in an empty field. */
function expected(keys: readonly Key[]): string {
  const line: Line = { text: [], at: 0 };
  for (const key of keys) key.edit(line);
  return line.text.join('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each key in its own read, 60 a second, as a fast typist's terminal sends them. */
async function typeAt60(m: InkDashboard, keys: readonly Key[]): Promise<void> {
  for (const key of keys) {
    m.keyboard.emit('data', Buffer.from(key.bytes));
    await sleep(16);
  }
}

/** Every key in one read, as a script or a slow link delivers them. */
const typeInOneRead = (m: InkDashboard, keys: readonly Key[]) => m.keyboard.type(keys.map((key) => key.bytes).join(''));

describe('typing at full speed into every field', () => {
  const ctx = setUpSandbox();
  const mounted: InkDashboard[] = [];
  beforeAll(() => {
    // Real Ink on a fake terminal, drawing on its own time: not inside act().
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterEach(() => {
    for (const m of mounted.splice(0)) m.unmount();
  });
  afterAll(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });

  async function mount(): Promise<InkDashboard> {
    const m = await mountInkDashboard(ctx.client);
    mounted.push(m);
    return m;
  }

  /** Opens the rename of the first contact, emptied, and types `keys`; returns the name saved. */
  async function rename(keys: readonly Key[], how: (m: InkDashboard, keys: readonly Key[]) => Promise<void>): Promise<string | null> {
    const first = (await ctx.checker.listContacts({ limit: 1 })).contacts[0]!;
    const m = await mount();
    await m.keyboard.type('e');
    await m.until((f) => /✎/.test(f), 'the rename field');
    await m.keyboard.type('\u0005', '\u0015');
    await how(m, keys);
    await m.keyboard.type('\r');
    await m.until((f) => /renamed to/.test(f), 'the rename saved');
    return (await ctx.checker.getContact(first.id)).displayName;
  }

  it('rename: 200 keys at 60 keys/s leave exactly the line editor’s text', async () => {
    const keys = script('abcdefgh ', 50, 7);
    expect(expected(keys).trim().length).toBeGreaterThan(5);
    expect(await rename(keys, typeAt60)).toBe(expected(keys).trim());
  });

  it('rename: the same 200 keys in one read leave the same text', async () => {
    const keys = script('abcdefgh ', 50, 11);
    expect(await rename(keys, typeInOneRead)).toBe(expected(keys).trim());
  });

  it('create: 200 keys into the display name at 60 keys/s, after a username and a phone number', async () => {
    const keys = script('klmnop ', 50, 23);
    const m = await mount();
    await m.keyboard.type('c');
    await m.until((f) => /username/.test(f) && /Tab\/↓ next field/.test(f), 'the create form');
    await m.keyboard.type('speedy_typist', '\t', '+14155550199', '\t');
    await typeAt60(m, keys);
    await m.keyboard.type('\r');
    await m.until((f) => /created /.test(f), 'the contact created');
    const created = (await ctx.checker.listContacts({ limit: 5 })).contacts.find((c) => c.username === 'speedy_typist');
    expect(created?.displayName ?? '').toBe(expected(keys).trim());
  });

  it('the picker’s search: 200 keys at 60 keys/s, the query shown exactly', async () => {
    const keys = [...script('qxz ', 24, 5), ...[...'qqqq'].map((char) => ({ bytes: char, edit: (l: Line) => void (l.text.splice(l.at, 0, char), l.at++) }))];
    const m = await mount();
    await m.keyboard.type('\t', '/');
    await m.until((f) => /symbol or company name/.test(f), 'the picker');
    await typeAt60(m, keys);
    const query = expected(keys);
    await m.until((f) => f.includes(`no symbol or company matches "${query}"`), `the query "${query}" in full`);
  });
});
