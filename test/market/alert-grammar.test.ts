// The alert form's condition line (src/market/alert-grammar.ts): what each kind of line parses to,
// that the line written back for editing an alert parses to the same alert (an edit that changed
// nothing must save nothing different), and that every refusal names the field that is wrong, as
// the dashboard's form shows it under the field ("✗ condition: …") and the command line prints it.
import { describe, expect, it } from 'vitest';
import { type AlertSpec, alertLine, conditionFrom, parseAlertLine } from '../../src/market/alert-grammar.js';

/** The spec a line parses to; fails the test with the refusal when it is refused. */
function spec(line: string): AlertSpec {
  const parsed = parseAlertLine(line);
  if (typeof parsed === 'string') throw new Error(`${JSON.stringify(line)} was refused: ${parsed}`);
  return parsed;
}

/** The refusal of a line; fails the test when it parses. */
function refusal(line: string): string {
  const parsed = parseAlertLine(line);
  if (typeof parsed !== 'string') throw new Error(`${JSON.stringify(line)} parsed to ${JSON.stringify(parsed)}`);
  return parsed;
}

describe('parseAlertLine: each kind', () => {
  it('reads a price line above or below, whole or with decimals', () => {
    expect(spec('above 200')).toEqual({ condition: { kind: 'above', price: 200 }, oneShot: false });
    expect(spec('below 150.5')).toEqual({ condition: { kind: 'below', price: 150.5 }, oneShot: false });
    expect(spec('above .5')).toEqual({ condition: { kind: 'above', price: 0.5 }, oneShot: false });
  });

  it('reads a move: + up, - down, no sign either way; from the open unless told', () => {
    expect(spec('move +5')).toEqual({ condition: { kind: 'move', percent: 5, direction: 'up', from: 'open' }, oneShot: false });
    expect(spec('move -5')).toEqual({ condition: { kind: 'move', percent: 5, direction: 'down', from: 'open' }, oneShot: false });
    expect(spec('move 2.5')).toEqual({ condition: { kind: 'move', percent: 2.5, direction: 'either', from: 'open' }, oneShot: false });
    expect(spec('move -5 from set').condition).toEqual({ kind: 'move', percent: 5, direction: 'down', from: 'set' });
    expect(spec('move +1 from close').condition).toEqual({ kind: 'move', percent: 1, direction: 'up', from: 'close' });
    expect(spec('move 3 from open').condition).toEqual({ kind: 'move', percent: 3, direction: 'either', from: 'open' });
  });

  it('reads a stale alert as a whole number of polls, 1 to 1000', () => {
    expect(spec('stale 3')).toEqual({ condition: { kind: 'stale', polls: 3 }, oneShot: false });
    expect(spec('stale 1').condition).toEqual({ kind: 'stale', polls: 1 });
    expect(spec('stale 1000').condition).toEqual({ kind: 'stale', polls: 1000 });
  });

  it('takes a trailing "once" on any kind, after "from"', () => {
    expect(spec('above 200 once')).toEqual({ condition: { kind: 'above', price: 200 }, oneShot: true });
    expect(spec('below 1 once').oneShot).toBe(true);
    expect(spec('stale 3 once')).toEqual({ condition: { kind: 'stale', polls: 3 }, oneShot: true });
    expect(spec('move -5 from set once')).toEqual({ condition: { kind: 'move', percent: 5, direction: 'down', from: 'set' }, oneShot: true });
  });

  it('is typed loosely: any case, spaces around and between the words', () => {
    expect(spec('  ABOVE   200  Once ')).toEqual(spec('above 200 once'));
    expect(spec('Move\t-5  FROM  Set')).toEqual(spec('move -5 from set'));
  });
});

describe('alertLine: the line an alert is edited from', () => {
  const lines = [
    'above 200',
    'below 150.5',
    'above 0.0001',
    'above 99999 once',
    'move +5',
    'move -5',
    'move 5',
    'move -5 from set',
    'move +0.5 from close once',
    'move 7 from set',
    'stale 3',
    'stale 1000 once',
  ];

  it('writes back the line as typed, for each kind, sign, from and once', () => {
    for (const line of lines) expect(alertLine(spec(line)), line).toBe(line);
  });

  it('leaves out "from open", the default, and reads the same alert back', () => {
    expect(alertLine(spec('move -5 from open'))).toBe('move -5');
    expect(spec(alertLine(spec('move -5 from open once')))).toEqual(spec('move -5 from open once'));
  });

  it('round-trips every alert made by hand, whatever the number (no sign kept on a price, exponents written out)', () => {
    const specs: AlertSpec[] = [
      { condition: { kind: 'above', price: 187.23 }, oneShot: false },
      { condition: { kind: 'below', price: 0.0000001 }, oneShot: true },
      { condition: { kind: 'above', price: 1e21 }, oneShot: false },
      { condition: { kind: 'move', percent: 12.75, direction: 'up', from: 'set' }, oneShot: true },
      { condition: { kind: 'move', percent: 0.01, direction: 'either', from: 'close' }, oneShot: false },
      { condition: { kind: 'move', percent: 3, direction: 'down', from: 'open' }, oneShot: false },
      { condition: { kind: 'stale', polls: 42 }, oneShot: false },
    ];
    for (const s of specs) expect(parseAlertLine(alertLine(s)), alertLine(s)).toEqual(s);
  });
});

describe('parseAlertLine: refusals name the field', () => {
  it('an empty line says what a condition looks like', () => {
    for (const line of ['', '   ']) expect(refusal(line)).toMatch(/^type a condition: above 200, below 150, move -5 from set, stale 3/);
  });

  it('a price that is not a positive number: "the price", quoting what was typed', () => {
    expect(refusal('above 2x')).toBe('the price must be a positive number, not "2x"');
    expect(refusal('above 0')).toBe('the price must be a positive number, not "0"');
    expect(refusal('below -5')).toBe('the price must be a positive number, not "-5"');
    expect(refusal('above infinity')).toMatch(/^the price must be a positive number/);
    expect(refusal('above')).toBe('the price must be a positive number, not ""');
  });

  it('a move without a good percentage: "the percentage"', () => {
    expect(refusal('move')).toMatch(/^the percentage must be a positive number/);
    expect(refusal('move -x')).toBe('the percentage must be a positive number, not "-x"');
    // Written plainly only: JavaScript's other number forms are not prices a person types.
    expect(refusal('above 0x10')).toBe('the price must be a positive number, not "0x10"');
    expect(refusal('above 1e3')).toBe('the price must be a positive number, not "1e3"');
    expect(refusal('move 0')).toMatch(/^the percentage must be a positive number/);
    // One sign only: the whole of what was typed is quoted.
    expect(refusal("move +-5")).toBe('the percentage must be a positive number, not "+-5"');
  });

  it('a stale alert without a whole number of polls from 1 to 1000: "the number of polls"', () => {
    for (const value of ['0', '1001', '2.5', '+3', 'three']) {
      expect(refusal(`stale ${value}`), value).toBe(`the number of polls must be a whole number from 1 to 1000, not ${JSON.stringify(value)}`);
    }
    expect(refusal('stale')).toMatch(/^the number of polls must be a whole number/);
  });

  it('an unknown kind lists the four there are', () => {
    expect(refusal('sideways 5')).toBe('expected above, below, move or stale, not "sideways"');
    // "once" alone is the flag, taken off: no kind is left.
    expect(refusal('once')).toBe('expected above, below, move or stale, not ""');
  });

  it('"from" needs a value, one of open, close or set, and only on a move', () => {
    expect(refusal('move 5 from')).toBe('from must be followed by open, close or set');
    expect(refusal('move 5 from once')).toBe('from must be followed by open, close or set');
    expect(refusal('move 5 from noon')).toBe('from must be open, close or set, not "noon"');
    expect(refusal('above 200 from set')).toBe('from is for a move alert');
    expect(refusal('stale 3 from open')).toBe('from is for a move alert');
  });

  it('anything after the condition is trailing junk, named', () => {
    expect(refusal('above 200 extra')).toBe('unexpected "extra": the condition ends after its value (and "from …", "once")');
    expect(refusal('move -5 from set now')).toMatch(/^unexpected "now"/);
    // "once" once, at the end.
    expect(refusal('above 200 once once')).toMatch(/^unexpected "once"/);
    // Out of place it is not the flag: what follows the value is junk.
    expect(refusal('above once 200')).toMatch(/^unexpected "200"/);
  });
});

describe('conditionFrom: the command line\'s words, its own name for from', () => {
  it('names the option as the command line spells it', () => {
    expect(conditionFrom('above', '200', 'set', '--from')).toBe('--from is for a move alert');
    expect(conditionFrom('move', '5', 'noon', '--from')).toBe('--from must be open, close or set, not "noon"');
    expect(conditionFrom('move', '-5', 'set', '--from')).toEqual({ kind: 'move', percent: 5, direction: 'down', from: 'set' });
  });
});
