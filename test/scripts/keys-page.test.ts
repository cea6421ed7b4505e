// docs/keys.md is the keymap's, never a hand-kept copy: it must be what `npm run docs:keys` makes
// from the keymap now, and every binding of the keymap must be on it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BINDINGS } from '../../src/tui/keys/keymap.js';
import { HELP_GROUPS, READER_GROUP } from '../../src/tui/chrome/help-layout.js';
import { keyLabel, keysPage, KEYS_PAGE } from '../../scripts/keys-page.js';

describe('docs/keys.md', () => {
  it('is what npm run docs:keys makes from the keymap (run it after changing a key)', () => {
    expect(readFileSync(KEYS_PAGE, 'utf8'), 'docs/keys.md is stale: run `npm run docs:keys`').toBe(keysPage());
  });

  it('lists every binding of the keymap, each key by the name on the keyboard', () => {
    const page = keysPage();
    for (const binding of BINDINGS) {
      for (const key of binding.keys) expect(page, `${binding.command}: ${key}`).toContain(`\`${keyLabel(key)}\``);
    }
    // Every scope a binding has is in one of the help's groups, so nothing falls off the page.
    const grouped = new Set([...HELP_GROUPS, READER_GROUP].flatMap(([, scopes]) => scopes));
    for (const binding of BINDINGS) expect(grouped.has(binding.scope), binding.scope).toBe(true);
  });

  it('spells keys as a keyboard does', () => {
    expect(['ctrl-u', 'alt-b', 'pagedown', 'shift-tab', 'up', 'G', 'space'].map(keyLabel)).toEqual(['Ctrl-U', 'Alt-B', 'PgDn', 'Shift-Tab', '↑', 'G', 'Space']);
  });
});
