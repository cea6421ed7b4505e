// Which command lines bin/tickbook runs from the dashboard's script (with its code cache) and
// which from the ES modules: the same CLI either way, so a wrong choice costs speed, not behaviour.
import { describe, expect, it } from 'vitest';
import { opensDashboard } from '../../src/launch/route.js';

describe('the launcher’s choice of bundle', () => {
  it('runs the dashboard, with or without its options, from the script', () => {
    expect(opensDashboard([])).toBe(true);
    expect(opensDashboard(['--watchlist', 'AAPL'])).toBe(true);
    expect(opensDashboard(['--interval', '5', '--theme', 'light'])).toBe(true);
    expect(opensDashboard(['--'])).toBe(true);
  });

  it('runs help, the version and every command from the ES modules', () => {
    for (const args of [['-h'], ['--help'], ['--version'], ['help'], ['serve'], ['contacts', 'list'], ['quote', 'AAPL'], ['__complete', 'tickbook', ''], ['']]) {
      expect(opensDashboard(args), JSON.stringify(args)).toBe(false);
    }
  });
});
