// Long lists scroll like a pager: the highlight moves over rows that stay put, and the rows shift
// only at the window's edge, so one key redraws two rows, not the pane.
import { render } from 'ink-testing-library';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SelectList } from '../../src/tui/components/SelectList.js';
import { pagerTop } from '../../src/tui/state/scroll.js';
import { plain } from '../helpers/ink.js';

describe('pagerTop', () => {
  it('keeps the window where it was while the cursor stays inside it', () => {
    expect(pagerTop(0, 100, 5, 10)).toBe(0);
    expect(pagerTop(20, 100, 25, 10)).toBe(20);
    expect(pagerTop(20, 100, 29, 10)).toBe(20);
  });

  it('shifts only as far as keeps the cursor in view, at either edge', () => {
    expect(pagerTop(0, 100, 10, 10)).toBe(1);
    expect(pagerTop(20, 100, 19, 10)).toBe(19);
    expect(pagerTop(20, 100, 99, 10)).toBe(90);
    expect(pagerTop(90, 100, 0, 10)).toBe(0);
  });

  it('never leaves rows empty below a list that fits, nor points past it', () => {
    expect(pagerTop(50, 30, 29, 10)).toBe(20);
    expect(pagerTop(5, 8, 3, 10)).toBe(0);
    expect(pagerTop(3, 0, 0, 10)).toBe(0);
    expect(pagerTop(-4, 100, 2, 10)).toBe(0);
  });
});

describe('a list drawn as a pager', () => {
  const items = Array.from({ length: 100 }, (_, i) => ({ key: `s${i}`, label: `symbol ${String(i).padStart(3, '0')}` }));
  let instance: ReturnType<typeof render> | undefined;
  afterEach(async () => {
    await act(async () => instance?.unmount());
  });

  async function frameAt(cursor: number): Promise<string[]> {
    await act(async () => {
      if (instance) instance.rerender(<SelectList items={items} cursor={cursor} rows={10} />);
      else instance = render(<SelectList items={items} cursor={cursor} rows={10} />);
    });
    return plain(instance!.lastFrame()).split('\n');
  }

  const changed = (a: string[], b: string[]) => a.filter((line, i) => line !== b[i]).length;

  it('a step inside the window changes two rows; a step past its edge shifts the rows by one', async () => {
    let before = await frameAt(0);
    for (let cursor = 1; cursor < 10; cursor++) {
      const after = await frameAt(cursor);
      expect(changed(before, after), `cursor ${cursor}`).toBe(2);
      expect(after[0]).toContain('symbol 000');
      before = after;
    }
    const shifted = await frameAt(10);
    expect(shifted[0]).toContain('symbol 001');
    expect(shifted[9]).toContain('symbol 010');
    // Back up inside the window: the rows stay where they are.
    const up = await frameAt(5);
    expect(up[0]).toContain('symbol 001');
    expect(changed(shifted, up)).toBe(2);
  });
});
