// What Tab offers (src/cli/complete.ts), as plain function calls over fixed sources.
import { describe, expect, it } from 'vitest';
import { complete, type Sources } from '../../src/cli/complete.js';

const sources: Sources = {
  symbols: () => ['AAPL', 'AAL.L', 'MSFT', 'NVDA'],
  watchlists: () => ['Tech', 'Banks'],
  alerts: async () => ['1', '2', '12'],
};
const ask = (line: string) => {
  const words = line.split(' ');
  return complete(words.slice(0, -1), words.at(-1)!, sources);
};

describe('complete', () => {
  it('commands, then a command\'s actions', async () => {
    expect(await ask('')).toEqual(['contacts', 'quote', 'symbols', 'history', 'alerts', 'holdings', 'config', 'serve', 'completion', 'doctor']);
    expect(await ask('co')).toEqual(['contacts', 'config', 'completion']);
    expect(await ask('contacts ')).toEqual(['list', 'get', 'create', 'rename', 'delete', 'search', 'export', 'import', 'duplicates']);
    expect(await ask('alerts p')).toEqual(['pause']);
    expect(await ask('nosuch ')).toEqual([]);
  });

  it('options from the tables the commands parse with, each once unless repeatable', async () => {
    expect(await ask('contacts list --a')).toEqual(['--api-key', '--api-key-file', '--active', '--all', '--after']);
    expect(await ask('contacts list --all --a')).toEqual(['--api-key', '--api-key-file', '--active', '--after']);
    expect(await ask('serve --t')).toEqual(['--token']);
    expect(await ask('serve --token x --t')).toEqual(['--token']);
    expect(await ask('--w')).toEqual(['--watchlist']);
    expect(await ask('contacts export --')).toContain('--output');
    expect(await ask('contacts list --')).not.toContain('--output');
  });

  it('option values: formats by action, files, watchlists, fixed choices; a free value is the user\'s', async () => {
    expect(await ask('contacts export --format ')).toEqual(['vcf', 'csv', 'json', 'ndjson']);
    expect(await ask('contacts import --format ')).toEqual(['auto', 'vcf', 'csv']);
    expect(await ask('contacts export --output ')).toBe('files');
    expect(await ask('--watchlist T')).toEqual(['Tech']);
    expect(await ask('history AAPL --bars ')).toEqual(['1m', '1d']);
    expect(await ask('alerts add AAPL move 5 --from ')).toEqual(['open', 'close', 'set']);
    expect(await ask('contacts list --limit ')).toEqual([]);
    // An option's value is neither the action nor a word of its own.
    expect(await ask('contacts --base-url http://x li')).toEqual(['list']);
    expect(await ask('alerts rm --base-url http://x 1')).toEqual(['1', '12']);
    expect(await ask('quote --base-url http://x A')).toEqual(['AAPL', 'AAL.L']);
  });

  it('words: symbols as typed in any case, alert ids, files to import, config keys and their values', async () => {
    expect(await ask('quote aa')).toEqual(['AAPL', 'AAL.L']);
    expect(await ask('quote AAPL M')).toEqual(['MSFT']);
    expect(await ask('history N')).toEqual(['NVDA']);
    expect(await ask('alerts rm 1')).toEqual(['1', '12']);
    expect(await ask('alerts rm 1 ')).toEqual([]);
    expect(await ask('alerts add ')).toEqual(['AAPL', 'AAL.L', 'MSFT', 'NVDA']);
    expect(await ask('contacts import ')).toBe('files');
    expect(await ask('contacts import a.vcf ')).toBe('files');
    expect(await ask('config get int')).toEqual(['interval']);
    expect(await ask('config set alerts.')).toEqual(['alerts.bell', 'alerts.notify', 'alerts.command']);
    expect(await ask('config set colors ')).toEqual(['auto', 'none', '16', '256']);
    expect(await ask('config set interval ')).toEqual([]);
    expect(await ask('config set mouse ')).toEqual(['true', 'false']);
    expect(await ask('config set hide_money ')).toEqual(['true', 'false']);
    expect(await ask('completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(await ask('completion bash ')).toEqual([]);
    expect(await ask('config set theme ')).toEqual(['auto', 'dark', 'light', 'mono']);
    expect(await ask('--theme l')).toEqual(['light']);
  });
});
