// The open symbol's controller alone, with no React and so no render between commands: each key
// acts on what the one before it left (several keys come in one read).
import { describe, expect, it } from 'vitest';
import { DetailController } from '../../../src/tui/detail/detail-controller.js';

const ORDER = ['AAPL', 'MSFT', 'NVDA'];

describe('DetailController', () => {
  it('keys in a row each step from where the one before left the symbol and the span', () => {
    const detail = new DetailController();
    let told = 0;
    detail.subscribe(() => told++);
    expect(detail.current()).toBeUndefined();
    detail.open('AAPL');
    detail.stepSpan(1);
    detail.stepSpan(1);
    detail.stepSymbol(1, ORDER);
    detail.stepSymbol(1, ORDER);
    expect(detail.current()).toEqual({ symbol: 'NVDA', span: '1m' });
    // Stopped at either end.
    detail.stepSymbol(5, ORDER);
    detail.stepSpan(9);
    expect(detail.current()).toEqual({ symbol: 'NVDA', span: 'all' });
    detail.stepSymbol(-9, ORDER);
    expect(detail.current()).toEqual({ symbol: 'AAPL', span: 'all' });
    expect(told).toBe(7);
  });

  it("the span chosen last is the next symbol's, after a close", () => {
    const detail = new DetailController();
    detail.open('AAPL');
    expect(detail.current()).toEqual({ symbol: 'AAPL', span: '1d' });
    detail.span('5d');
    detail.close();
    expect(detail.current()).toBeUndefined();
    detail.open('MSFT');
    expect(detail.current()).toEqual({ symbol: 'MSFT', span: '5d' });
  });

  it('nothing open: the span and the step keys do nothing', () => {
    const detail = new DetailController();
    detail.span('1h');
    detail.stepSpan(1);
    detail.stepSymbol(1, ORDER);
    expect(detail.current()).toBeUndefined();
    detail.open('MSFT');
    expect(detail.current()).toEqual({ symbol: 'MSFT', span: '1d' });
  });
});
