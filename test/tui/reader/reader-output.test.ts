// The reader's output on a real StatusBoard and a manual clock: what is written, byte for byte,
// as the screen, the notices, the errors and the clock change.
import { describe, expect, it } from 'vitest';
import { QUIET_MS, ReaderOutput, spoken, spokenAscii, SUBMIT_CHECK_MS } from '../../../src/tui/reader/reader-output.js';
import { type ReaderScreen, screenLines } from '../../../src/tui/reader/reader-screen.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { ManualClock } from '../../helpers/manual-clock.js';

const screen = (place: string, selected?: string, more: Partial<ReaderScreen> = {}): ReaderScreen => ({
  place,
  body: undefined,
  selected: selected === undefined ? undefined : { key: selected, words: selected },
  facts: {},
  field: undefined,
  ...more,
});

function setUp(readPricesEveryS = 0) {
  const clock = new ManualClock();
  const status = new StatusBoard(clock.now);
  let written = '';
  const output = new ReaderOutput({ write: (bytes) => (written += bytes), status, timers: clock.timers, now: clock.now, readPricesEveryS });
  output.start();
  const take = () => {
    const was = written;
    written = '';
    return was;
  };
  take();
  return { clock, status, output, take };
}

describe('what a screen says, from the one before', () => {
  it('says the place and the selection on arriving, then only the selection as it moves', () => {
    const first = screen('Contacts, page 1', 'Ada, 1 of 3');
    expect(screenLines(undefined, first)).toEqual(['Contacts, page 1', 'Ada, 1 of 3']);
    expect(screenLines(first, screen('Contacts, page 1', 'Bob, 2 of 3'))).toEqual(['Bob, 2 of 3']);
    expect(screenLines(first, first)).toEqual([]);
  });

  it('says a selection again only when it is another thing, not when its words change (a price)', () => {
    const before = screen('Ticker', undefined, { selected: { key: 'AAPL', words: 'AAPL, 1 dollar' } });
    expect(screenLines(before, { ...before, selected: { key: 'AAPL', words: 'AAPL, 2 dollars' } })).toEqual([]);
  });

  it('says a fact when it changes, not when it goes, nor when a pane is come back to', () => {
    const none = screen('Contacts', 'Ada', { facts: { marked: 'none marked', undo: undefined } });
    const one = { ...none, facts: { marked: '1 marked', undo: undefined } };
    expect(screenLines(none, one)).toEqual(['1 marked']);
    expect(screenLines(one, { ...one, facts: { marked: '1 marked', undo: 'deleted Ada, u to undo within 5 seconds' } })).toEqual(['deleted Ada, u to undo within 5 seconds']);
    expect(screenLines({ ...one, facts: { undo: 'x' } }, { ...one, facts: { undo: undefined } })).toEqual([]);
    expect(screenLines(screen('Ticker', 'AAPL'), none)).toEqual(['Contacts', 'Ada']);
  });
});

describe('the reader output', () => {
  it('appends each line once, and nothing when nothing changed', () => {
    const { output, take } = setUp();
    output.show(screen('Contacts, page 1', 'Ada, 1 of 3'));
    expect(take()).toBe('Contacts, page 1\nAda, 1 of 3\n');
    output.show(screen('Contacts, page 1', 'Ada, 1 of 3'));
    expect(take()).toBe('');
    output.show(screen('Contacts, page 1', 'Bob, 2 of 3'));
    expect(take()).toBe('Bob, 2 of 3\n');
  });

  it('says every notice as it comes, said again when it comes again', () => {
    const { status, take } = setUp();
    status.notice('renamed to Ada');
    expect(take()).toBe('renamed to Ada\n');
    status.notice('alert: AAPL crossed above 200');
    status.notice('alert: AAPL crossed above 200');
    expect(take()).toBe('alert: AAPL crossed above 200\nalert: AAPL crossed above 200\n');
  });

  it('says an error once however often it is failed again, and its end once', () => {
    const { status, take, clock } = setUp();
    status.fail('ticker', 'could not reach the market data server', clock.now() + 4000);
    expect(take()).toBe('problem: could not reach the market data server; trying again in 4 seconds\n');
    status.fail('ticker', 'could not reach the market data server', clock.now() + 8000);
    status.fail('ticker', 'could not reach the market data server', clock.now() + 16000);
    expect(take()).toBe('');
    status.fail('contacts', 'the contacts server said 503');
    expect(take()).toBe('problem: the contacts server said 503\n');
    status.recover('ticker');
    expect(take()).toBe('prices are coming in again\n');
    status.recover('ticker');
    status.recover('contacts');
    expect(take()).toBe('contacts answer again\n');
  });

  it('reads no price unasked by default, and t reads it at once', () => {
    const { output, clock, take } = setUp();
    let price = { key: 'AAPL 1', words: 'AAPL, 1 dollar' };
    output.price = () => price;
    clock.advance(60_000);
    price = { key: 'AAPL 2', words: 'AAPL, 2 dollars' };
    clock.advance(60_000);
    expect(take()).toBe('');
    output.readPrice();
    expect(take()).toBe('AAPL, 2 dollars\n');
  });

  it('reads the price every N seconds when set, only when it changed, never into a field being typed', () => {
    const { output, clock, take } = setUp(10);
    let price = { key: 'AAPL 1', words: 'AAPL, 1 dollar, up 1 cent' };
    output.price = () => price;
    clock.advance(9_999);
    expect(take()).toBe('');
    clock.advance(1);
    expect(take()).toBe('AAPL, 1 dollar, up 1 cent\n');
    // The same price, its tick change now none: not news.
    price = { key: 'AAPL 1', words: 'AAPL, 1 dollar, unchanged' };
    clock.advance(10_000);
    expect(take()).toBe('');
    price = { key: 'AAPL 2', words: 'AAPL, 2 dollars' };
    output.show(screen('Rename', undefined, { field: { key: 'rename', prompt: 'New name', text: { value: 'A', cursor: 1 } } }));
    take();
    clock.advance(10_000);
    expect(take()).toBe('');
    output.show(screen('Ticker'));
    take();
    clock.advance(10_000);
    expect(take()).toBe('AAPL, 2 dollars\n');
  });

  it('keeps a field on the last line, its prompt above it, and ends the line when it closes', () => {
    const { output, take } = setUp();
    const renaming = (value: string) => screen('Rename Ada', undefined, { field: { key: 'rename 1', prompt: 'New display name.', text: { value, cursor: [...value].length } } });
    output.show(renaming('Ada'));
    expect(take()).toBe('Rename Ada\nNew display name.\nAda');
    output.show(renaming('Ad'));
    expect(take()).toBe('\b \b');
    output.show(screen('Contacts, page 1', 'Ad, 1 of 3'));
    expect(take()).toBe('\nContacts, page 1\nAd, 1 of 3\n');
  });

  it('says a notice above the field and writes the field again, the cursor where it was', () => {
    const { output, status, take } = setUp();
    output.show(screen('Search', undefined, { field: { key: 'search', prompt: 'Type a name.', text: { value: 'adx', cursor: 2 } } }));
    take();
    status.notice('alert: AAPL crossed above 200');
    expect(take()).toBe('\nalert: AAPL crossed above 200\nadx\b');
  });

  it('says what typing changed (the best match) only once typing pauses, and only the latest', () => {
    const { output, clock, take } = setUp();
    const searching = (value: string, hit: string) =>
      screen('Search', hit, { field: { key: 'search', prompt: 'Type a name.', text: { value, cursor: value.length } } });
    output.show(searching('a', 'Ada'));
    take();
    output.show(searching('an', 'Ana'));
    clock.advance(QUIET_MS - 1);
    output.show(searching('ann', 'Anna'));
    expect(take()).toBe('nn');
    clock.advance(QUIET_MS - 1);
    expect(take()).toBe('');
    clock.advance(1);
    expect(take()).toBe('\nAnna\nann');
  });

  it('cleans what it says and, where the terminal has no Unicode, says it in ASCII', () => {
    const clock = new ManualClock();
    let written = '';
    const output = new ReaderOutput({ write: (b) => (written += b), status: new StatusBoard(clock.now), timers: clock.timers, now: clock.now, shown: (t) => t.replace(/č/g, 'c') });
    output.show(screen('Contacts', 'Ana Kovačić\u001b[2J, 1 of 1'));
    expect(written).toBe('Contacts\nAna Kovacić, 1 of 1\n');
  });

  it('ends a field line when the terminal is handed back, and says where it was on coming back', () => {
    const { output, take } = setUp();
    output.show(screen('Filter', undefined, { field: { key: 'filter', prompt: 'Type part of a name.', text: { value: 'ad', cursor: 2 } } }));
    take();
    output.suspend();
    expect(take()).toBe('\n');
    output.resume();
    expect(take()).toBe('resumed\nFilter\nType part of a name.\nad');
  });

  it('says nothing of a match typing pointed at once the field has moved on (Enter added it)', () => {
    const { output, clock, take } = setUp();
    const picking = (value: string, match?: string) =>
      screen('Add a symbol', match, { field: { key: 'picker', prompt: 'Type a symbol.', text: { value, cursor: value.length } } });
    output.show(picking(''));
    take();
    output.show(picking('c', 'C, Citigroup Inc., match 1 of 458'));
    // Enter within the pause: the field is emptied for the next symbol, the match gone.
    output.show(picking(''));
    clock.advance(QUIET_MS * 2);
    expect(take()).toBe('c\b \b');
  });

  it('says a form\'s problem again when Enter is refused for the same reason, and once when it is new', () => {
    const { output, clock, take } = setUp();
    const form = (problem: string | undefined) =>
      screen('New contact', undefined, { facts: { problem }, field: { key: 'create username', prompt: 'Username', text: { value: '', cursor: 0 } } });
    output.show(form(undefined));
    take();
    output.submitted();
    output.show(form('Username: username is required'));
    clock.advance(SUBMIT_CHECK_MS);
    expect(take()).toBe('Username: username is required\n');
    output.submitted();
    clock.advance(SUBMIT_CHECK_MS);
    expect(take()).toBe('Username: username is required\n');
  });

  it('leaves an empty field without a blank line', () => {
    const { output, take } = setUp();
    output.show(screen('Filter', undefined, { field: { key: 'filter', prompt: 'Type part of a name.', text: { value: '', cursor: 0 } } }));
    take();
    output.show(screen('Contacts, page 1', 'Ada, 1 of 3'));
    expect(take()).toBe('Contacts, page 1\nAda, 1 of 3\n');
  });

  it('says `o` as the screen is when pressed, its price too', () => {
    const { output, take } = setUp();
    output.show(screen('Ticker', undefined, { selected: { key: 'AAPL', words: 'AAPL, 1 dollar' } }));
    take();
    output.describe = () => screen('Ticker', undefined, { selected: { key: 'AAPL', words: 'AAPL, 2 dollars' } });
    output.repeat();
    expect(take()).toBe('Ticker\nAAPL, 2 dollars\n');
  });

  it('makes no line of a line break a server put in a name, and says the marks notices use in words', () => {
    const { status, take } = setUp();
    status.notice('copied the username of Ada\nproblem: fake: ada');
    expect(take()).toBe('copied the username of Ada problem: fake: ada\n');
    expect(spoken('prices every 2s · type a symbol (or ↓ to browse)…')).toBe('prices every 2 seconds, type a symbol (or down arrow to browse)...');
    expect(spokenAscii('Chloé Martin, 王伟')).toBe('Chloe Martin, ????');
  });

  it('says after the greeting what was said before the dashboard was up: a warning, an error standing', () => {
    const clock = new ManualClock();
    const status = new StatusBoard(clock.now);
    status.notice('warning: unknown key colour in the config file (did you mean colors?)');
    status.fail('history', 'the price history is held by another process');
    let written = '';
    new ReaderOutput({ write: (b) => (written += b), status, timers: clock.timers, now: clock.now }).start();
    expect(written.split('\n').slice(1)).toEqual(['warning: unknown key colour in the config file (did you mean colors?)', 'problem: the price history is held by another process', '']);
  });
});
