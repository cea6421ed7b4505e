// A price history of its own for each test of the dashboard: a PriceRecorder open on a file in a
// temp dir, closed (after the dashboards that write into it) and removed after each test, with
// any warning it gave failing the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { PriceRecorder } from '../../src/store/price-recorder.js';
import { unmountAll } from './dashboard.js';

export function setUpRecorder(source: string, prefix: string): { readonly recorder: PriceRecorder; readonly dir: string } {
  const state: { recorder?: PriceRecorder; dir?: string } = {};
  const warnings: string[] = [];
  beforeEach(async () => {
    state.dir = mkdtempSync(join(tmpdir(), prefix));
    warnings.length = 0;
    state.recorder = new PriceRecorder({ source, path: join(state.dir, 'history.db'), onWarning: (w) => warnings.push(w) });
    await state.recorder.open();
    expect(state.recorder.books()).toBeDefined();
  });
  afterEach(async () => {
    // The dashboard first: it writes into the file until it is unmounted.
    await unmountAll();
    expect(warnings).toEqual([]);
    state.recorder?.close();
    if (state.dir) rmSync(state.dir, { recursive: true, force: true });
  });
  return {
    get recorder() {
      return state.recorder!;
    },
    get dir() {
      return state.dir!;
    },
  };
}
