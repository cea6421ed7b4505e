// Keys whose answer a reader must hear, since nothing else on screen changes: the mouse key in a
// run that does not use the mouse, and Enter in the symbol picker with no match.
import { describe, expect, it } from 'vitest';
import { mouseCommands } from '../../../src/tui/mouse/mouse-commands.js';
import { fieldAtEnd } from '../../../src/tui/state/field-text.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { tickerCommands } from '../../../src/tui/ticker/ticker-commands.js';

describe('what the keys say that a reader needs to hear', () => {
  it('the mouse key says the mouse is the terminal\'s, and changes and saves nothing', () => {
    const status = new StatusBoard();
    const told: boolean[] = [];
    const saved: boolean[] = [];
    const on = { current: false };
    mouseCommands({ on, tell: (v) => told.push(v), persist: (v) => saved.push(v), status, unavailable: 'the mouse is left to the terminal' }).mouse('global', 1);
    expect([told, saved, on.current, status.getSnapshot().notice]).toEqual([[], [], false, 'the mouse is left to the terminal']);
  });

  it('Enter in the picker with no match says so', () => {
    const status = new StatusBoard();
    const picker = { get: () => ({ open: true, query: fieldAtEnd('xyzq'), cursor: 0, chosen: true }), dispatch: () => undefined };
    const commands = tickerCommands({ ticker: { add: () => true } as never, picker, symbols: { catalogue: [{ symbol: 'AAPL', name: 'Apple Inc.' }] } as never, columns: {} as never, toggleMoney: () => undefined, status });
    commands['picker.add']('ticker.picker', 1);
    expect(status.getSnapshot().notice).toBe('no symbol matches "xyzq"');
  });
});
