// Keys: resolving them through the scopes, which scopes are live, runs of a held key, and the
// footer and help drawn from the same table. Naming what the terminal sends is keyPresses'
// (terminal-input.test.ts).
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { footerLine, footerText } from '../../../src/tui/chrome/Footer.js';
import { helpLines } from '../../../src/tui/chrome/help-layout.js';
import { type KeyRun, runAt } from '../../../src/tui/keys/key-runs.js';
import type { KeyPress } from '../../../src/tui/keys/terminal-input.js';
import { EMPTY_FIELD } from '../../../src/tui/state/field-text.js';
import { BINDINGS, bindingsFor, isTextScope, resolveKey, type Scope } from '../../../src/tui/keys/keymap.js';
import { activeScopes } from '../../../src/tui/keys/scopes.js';
import { type ContactsMode, type ContactsState, initialContactsState } from '../../../src/tui/contacts/contacts-state.js';

const ALL_SCOPES: readonly Scope[] = [
  'global',
  'help',
  'contacts',
  'contacts.detail',
  'contacts.confirm',
  'contacts.rename',
  'contacts.create',
  'contacts.filter',
  'ticker',
  'ticker.picker',
];

describe('resolveKey', () => {
  it('resolves a pane key in its scope', () => {
    expect(resolveKey(['contacts', 'global'], 'j')).toBe('contacts.down');
    expect(resolveKey(['contacts', 'global'], 'pagedown')).toBe('contacts.next-page');
    expect(resolveKey(['contacts', 'global'], 'n')).toBe('contacts.next-page');
    expect(resolveKey(['contacts', 'global'], 'p')).toBe('contacts.previous-page');
    expect(resolveKey(['contacts', 'global'], 'pageup')).toBe('contacts.previous-page');
    expect(resolveKey(['contacts', 'global'], 'a')).toBe('contacts.toggle-active');
    expect(resolveKey(['ticker', 'global'], 'j')).toBe('ticker.down');
    expect(resolveKey(['ticker', 'global'], 'space')).toBe('ticker.pause');
    expect(resolveKey(['ticker', 'global'], 'J')).toBe('ticker.move-down');
    expect(resolveKey(['ticker', 'global'], 'K')).toBe('ticker.move-up');
    expect(resolveKey(['ticker', 'global'], 's')).toBe('ticker.sort');
    expect(resolveKey(['ticker', 'global'], 'x')).toBe('ticker.remove');
    expect(resolveKey(['ticker', 'global'], 'u')).toBe('ticker.undo');
    expect(resolveKey(['contacts', 'global'], 'u')).toBe('contacts.undo');
  });

  it('falls through from a pane scope to global', () => {
    for (const pane of [['contacts', 'global'], ['contacts.detail', 'global'], ['ticker', 'global']] as Scope[][]) {
      expect(resolveKey(pane, 'q')).toBe('quit');
      expect(resolveKey(pane, 'ctrl-c')).toBe('quit');
      expect(resolveKey(pane, 'tab')).toBe('focus-next');
      expect(resolveKey(pane, 'shift-tab')).toBe('focus-previous');
      expect(resolveKey(pane, '?')).toBe('help');
    }
  });

  it('an unbound key resolves to nothing', () => {
    expect(resolveKey(['contacts', 'global'], 'z')).toBeUndefined();
    expect(resolveKey(['contacts', 'global'], undefined)).toBeUndefined();
  });

  it('a modal scope stops the search: q in a text field is typing, not quit', () => {
    expect(resolveKey(['contacts.rename'], 'q')).toBeUndefined();
    expect(resolveKey(['contacts.rename', 'global'], 'q')).toBeUndefined();
    expect(resolveKey(['contacts.create', 'global'], 'q')).toBeUndefined();
    expect(resolveKey(['contacts.filter', 'global'], 'q')).toBeUndefined();
    expect(resolveKey(['ticker.picker', 'global'], 'q')).toBeUndefined();
    expect(resolveKey(['contacts.rename', 'global'], 'tab')).toBeUndefined();
    expect(resolveKey(['contacts.confirm', 'global'], 'j')).toBeUndefined();
  });

  it('Ctrl-C quits from every scope but a text field, where it leaves the field', () => {
    for (const scope of ALL_SCOPES) {
      const scopes: Scope[] = isTextScope(scope) || scope === 'help' || scope === 'contacts.confirm' ? [scope] : [scope, 'global'];
      const expected = isTextScope(scope) ? 'field.cancel' : 'quit';
      expect(resolveKey(scopes, 'ctrl-c'), scope).toBe(expected);
      expect(resolveKey([...scopes, 'global'], 'ctrl-c'), scope).toBe(expected);
    }
  });

  it('modal keys resolve in their scope', () => {
    expect(resolveKey(['contacts.rename'], 'enter')).toBe('field.submit');
    expect(resolveKey(['contacts.rename'], 'esc')).toBe('field.cancel');
    expect(resolveKey(['contacts.create'], 'tab')).toBe('field.next');
    expect(resolveKey(['contacts.create'], 'shift-tab')).toBe('field.previous');
    expect(resolveKey(['ticker.picker'], 'enter')).toBe('picker.add');
    expect(resolveKey(['ticker.picker'], 'esc')).toBe('field.cancel');
  });

  it('a delete is confirmed only by y; Enter and Esc keep the contact', () => {
    expect(resolveKey(['contacts.confirm'], 'y')).toBe('contacts.confirm-yes');
    expect(resolveKey(['contacts.confirm'], 'Y')).toBe('contacts.confirm-yes');
    expect(resolveKey(['contacts.confirm'], 'enter')).toBe('contacts.confirm-no');
    expect(resolveKey(['contacts.confirm'], 'esc')).toBe('contacts.confirm-no');
    expect(resolveKey(['contacts.confirm'], 'n')).toBe('contacts.confirm-no');
  });

  it('the help scope closes on Esc, ?, q and Enter, turns its pages, and swallows the rest', () => {
    for (const name of ['esc', '?', 'q', 'enter']) expect(resolveKey(['help'], name)).toBe('help.close');
    for (const name of ['pagedown', 'space', 'j', 'down', 'n']) expect(resolveKey(['help'], name)).toBe('help.next-page');
    for (const name of ['pageup', 'k', 'up', 'p']) expect(resolveKey(['help'], name)).toBe('help.previous-page');
    expect(resolveKey(['help'], 'd')).toBeUndefined();
    expect(resolveKey(['help'], 'tab')).toBeUndefined();
  });

  it('Enter opens and Esc goes back in the contacts pane', () => {
    expect(resolveKey(['contacts', 'global'], 'enter')).toBe('contacts.open');
    expect(resolveKey(['contacts.detail', 'global'], 'esc')).toBe('contacts.back');
  });

  it('text scopes are the four text fields', () => {
    expect(ALL_SCOPES.filter(isTextScope)).toEqual(['contacts.rename', 'contacts.create', 'contacts.filter', 'ticker.picker']);
  });

  it('no key is bound twice in one scope', () => {
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const binding of BINDINGS) {
      for (const name of binding.keys) {
        const id = `${binding.scope} ${name}`;
        if (seen.has(id)) duplicates.push(`${id}: ${seen.get(id)} and ${binding.command}`);
        seen.set(id, binding.command);
      }
    }
    expect(duplicates).toEqual([]);
  });

  it('every binding resolves to its own command in its own scope', () => {
    for (const binding of BINDINGS) {
      for (const name of binding.keys) expect(resolveKey([binding.scope], name), `${binding.scope} ${name}`).toBe(binding.command);
    }
  });
});

describe('activeScopes', () => {
  const contacts = (mode: ContactsMode, view: 'list' | 'detail' = 'list'): ContactsState => ({ ...initialContactsState(10), mode, view });
  const browse = contacts({ kind: 'browse' });

  it('help over everything, and the message log', () => {
    expect(activeScopes({ focus: 'contacts', overlay: 'help', contacts: browse })).toEqual(['help']);
    expect(activeScopes({ focus: 'ticker', overlay: 'help', contacts: browse, pickerOpen: true })).toEqual(['help']);
    expect(activeScopes({ focus: 'contacts', overlay: 'messages', contacts: contacts({ kind: 'rename', id: 'x', draft: EMPTY_FIELD }) })).toEqual(['messages']);
  });

  it('the ticker pane, and its picker when open', () => {
    expect(activeScopes({ focus: 'ticker', contacts: browse })).toEqual(['ticker', 'global']);
    expect(activeScopes({ focus: 'ticker', contacts: browse, pickerOpen: true })).toEqual(['ticker.picker']);
  });

  it('the contacts list and an open contact', () => {
    expect(activeScopes({ focus: 'contacts', contacts: browse })).toEqual(['contacts', 'global']);
    expect(activeScopes({ focus: 'contacts', contacts: contacts({ kind: 'browse' }, 'detail') })).toEqual(['contacts.detail', 'global']);
  });

  it('each contacts mode is a modal scope of its own', () => {
    expect(activeScopes({ focus: 'contacts', contacts: contacts({ kind: 'rename', id: 'x', draft: EMPTY_FIELD }) })).toEqual(['contacts.rename']);
    expect(activeScopes({ focus: 'contacts', contacts: contacts({ kind: 'rename', id: 'x', draft: EMPTY_FIELD }, 'detail') })).toEqual(['contacts.rename']);
    expect(activeScopes({ focus: 'contacts', contacts: contacts({ kind: 'confirm-delete', id: 'x' }) })).toEqual(['contacts.confirm']);
    expect(activeScopes({ focus: 'contacts', contacts: contacts({ kind: 'filter' }) })).toEqual(['contacts.filter']);
    expect(
      activeScopes({
        focus: 'contacts',
        contacts: contacts({
          kind: 'create',
          form: { values: { username: '', phone_number: '', display_name: '', avatar_url: '' }, errors: {}, field: 'username', cursor: 0, submitting: false },
        }),
      }),
    ).toEqual(['contacts.create']);
  });

  it('a contacts mode does not capture keys while the ticker has focus', () => {
    expect(activeScopes({ focus: 'ticker', contacts: contacts({ kind: 'filter' }) })).toEqual(['ticker', 'global']);
  });
});

describe('footerText', () => {
  it('lists the footer keys of the contacts list, then the global ones', () => {
    expect(footerText(['contacts', 'global'])).toBe(
      [
        'n/PgDn next page',
        'p/PgUp previous page',
        'Enter open contact',
        'e rename',
        'd delete (the marked ones)',
        'c create contact',
        '/ search every contact',
        'a all / active only',
        'Tab next pane',
        '? help: every key',
        'q quit',
      ].join(' · '),
    );
  });

  it('lists the ticker keys when the ticker has focus', () => {
    expect(footerText(['ticker', 'global'])).toBe(
      [
        'Enter open chart',
        '/ or i add symbols',
        'x remove symbol',
        's cycle sort',
        'w watchlists',
        'Space pause / resume',
        '+ poll less often',
        '- poll more often',
        'a set an alert',
        'Tab next pane',
        '? help: every key',
        'q quit',
      ].join(' · '),
    );
  });

  it('a modal scope shows only its own keys', () => {
    expect(footerText(['contacts.rename'])).toBe('Enter save name · Esc cancel');
    expect(footerText(['contacts.confirm'])).toBe('y yes, delete · n/Enter/Esc no, keep');
    expect(footerText(['help'])).toBe('Esc close help');
  });

  it('leaves out bindings not marked for the footer', () => {
    const text = footerText(['contacts', 'global']);
    for (const hidden of ['j/↓', 'k/↑', 'S-Tab', 'Ctrl-C', 'Ctrl-Z', 'undo delete', 'reload']) expect(text).not.toContain(hidden);
  });

  it('shows a key once when two scopes bind it', () => {
    const text = footerText(['contacts.detail', 'contacts', 'global']);
    expect(text.split(' · ').filter((part) => part.startsWith('e '))).toEqual(['e rename']);
    expect(text.split(' · ').filter((part) => part.startsWith('d '))).toEqual(['d delete']);
    expect(text.startsWith('Esc back to the list · e rename · d delete · ')).toBe(true);
  });

  it('every part is unique for every scope list the dashboard uses', () => {
    for (const scopes of [['contacts', 'global'], ['contacts.detail', 'global'], ['ticker', 'global'], ...ALL_SCOPES.map((s) => [s])] as Scope[][]) {
      const parts = footerText(scopes).split(' · ');
      expect(new Set(parts).size, scopes.join(',')).toBe(parts.length);
      const footerBindings = new Set(scopes.flatMap((s) => bindingsFor(s).filter((b) => b.footer).map((b) => b.label)));
      expect(parts.length).toBe(footerBindings.size);
    }
  });
});

describe('footerLine', () => {
  /** Every way a key of these scopes may be said: its full words, or its brief ones. */
  const wordsOf = (scopes: readonly Scope[]): Set<string> =>
    new Set(scopes.flatMap((s) => bindingsFor(s).filter((b) => b.footer).flatMap((b) => [`${b.label} ${b.help}`, ...(b.brief ? [b.brief] : [])])));

  it('is exactly the width, and drops whole keys, never half a word; help stays longest', () => {
    for (const width of [50, 60, 80, 100, 120, 160]) {
      for (const scopes of [['contacts', 'global'], ['contacts.detail', 'global'], ['ticker', 'global'], ['detail', 'global']] as Scope[][]) {
        const line = footerLine(scopes, width, width === 80 ? 'u undo delete' : undefined);
        expect(stringWidth(line), `${width} ${scopes}`).toBe(width);
        expect(line).not.toContain('…');
        const [left, right] = line.split(' │ ');
        const whole = new Set([...wordsOf(scopes.filter((s) => s !== 'global')), 'u undo delete']);
        for (const part of left!.trim().split(' · ').filter(Boolean)) expect(whole, `${width}: "${part}"`).toContain(part);
        for (const part of right!.split(' · ')) expect(wordsOf(['global'])).toContain(part);
        expect(right).toMatch(/^(.* · )?\? help/);
        // The pane's first key and the undo offer outlast quit and Tab.
        const first = bindingsFor(scopes[0]!).find((b) => b.footer)!;
        expect(left!.includes(`${first.label} ${first.help}`) || left!.includes(first.brief!)).toBe(true);
        if (width === 80) expect(left!.trim().startsWith('u undo delete')).toBe(true);
      }
    }
  });

  it('says every key in full words where they all fit, else every key in brief words, the same in either pane', () => {
    const wide = footerLine(['contacts.rename'], 80);
    expect(wide).toMatch(/^ Enter save name · Esc cancel +$/);
    const narrow = footerLine(['ticker', 'global'], 120);
    expect(narrow).toMatch(/^ Enter chart · \/ add · x remove · s sort · w lists · Space pause · \+\/- interval +│ Tab next pane · \? help · q quit$/);
  });

  it('at 80 columns (the stacked panes) shows four of the pane\'s keys, not one', () => {
    expect(footerLine(['contacts', 'global'], 80)).toMatch(/^ n\/p pages · Enter open · e rename · d delete +│ Tab next pane · \? help · q quit$/);
    expect(footerLine(['ticker', 'global'], 80)).toMatch(/^ Enter chart · \/ add · x remove · s sort +│ Tab next pane · \? help · q quit$/);
    expect(footerLine(['ticker', 'global'], 80, 'u undo remove')).toMatch(/^ u undo remove · Enter chart · \/ add +│ Tab next pane · \? help · q quit$/);
  });

  it('at 60 columns an open contact still shows how to go back', () => {
    expect(footerLine(['contacts.detail', 'global'], 60)).toMatch(/^ Esc back · e rename +│ Tab next pane · \? help · q quit$/);
  });

  it('a key whose brief words its partner says is left out of a brief footer, and is in the help', () => {
    expect(footerLine(['contacts', 'global'], 80)).not.toContain('p/PgUp');
    expect(helpLines().some((line) => !line.heading && line.key === 'p/PgUp')).toBe(true);
  });
});

describe('helpLines', () => {
  const entries = helpLines()
    .filter((line) => !line.heading)
    .map((line) => `${line.key} ${line.text}`);

  it('lists every key of every pane and text field (the screen reader\'s are said by its own help)', () => {
    for (const binding of BINDINGS.filter((b) => b.scope !== 'help' && b.scope !== 'reader' && !b.listedAbove)) {
      expect(entries, `${binding.scope}: ${binding.label}`).toContain(`${binding.label} ${binding.help}`);
    }
  });

  it('lists a key that shares a line with the one before it on that line', () => {
    expect(entries).toContain('1-5 span 1h, 1d, 5d, 1m, all');
    expect(entries).toContain('1-9 show list 1-9');
    expect(entries).toContain('[ ] previous / next list');
    const shared = BINDINGS.filter((b) => b.listedAbove && b.scope === 'detail');
    expect(shared.map((b) => b.keys.join())).toEqual(['2', '3', '4', '5']);
  });

  it('lists the keys that close the help too', () => {
    for (const binding of BINDINGS.filter((b) => b.scope === 'help' && !b.listedAbove)) {
      expect(entries, `${binding.scope}: ${binding.label}`).toContain(`${binding.label} ${binding.help}`);
    }
  });

  it('lists i for the picker, and Ctrl-U and Ctrl-W for every text field', () => {
    expect(entries).toContain('/ or i add symbols');
    expect(entries).toContain('Ctrl-U delete to the start');
    expect(entries).toContain('Ctrl-W delete the word before');
    expect(entries).toContain('m messages, in full');
  });

  it('has a heading for each group, in order', () => {
    expect(helpLines().filter((line) => line.heading).map((line) => line.key)).toEqual([
      'Anywhere',
      'Contacts, and one open',
      'Confirming a delete',
      'Renaming, creating, filtering',
      'Searching every contact (/)',
      'Ticker',
      'Watchlists menu',
      'Columns (C)',
      'An open symbol',
      'Alerts view (A)',
      'Holdings (h)',
      'Symbol picker',
      'Any text field',
      'Messages',
      'This help',
      'Terminal too small',
    ]);
  });

  it('lists Ctrl-C and q as quit', () => {
    expect(entries).toContain('Ctrl-C quit');
    expect(entries).toContain('q quit');
  });
});

describe('runAt', () => {
  /** The runs of one read's keys, as the key router walks them. */
  const runs = (keys: readonly KeyPress[]): { name: string; count: number }[] => {
    const found: KeyRun[] = [];
    for (let at = 0; at < keys.length; at += found.at(-1)!.count) found.push(runAt(keys, at));
    return found.map(({ key, count }) => ({ name: key.name, count }));
  };
  const typed = (chars: string): KeyPress[] => [...chars].map((char) => ({ name: char, text: char }));

  it('groups a held key into one run and keeps other keys in order, each meeting its own scope', () => {
    expect(runs(typed('jjjdyj'))).toEqual([
      { name: 'j', count: 3 },
      { name: 'd', count: 1 },
      { name: 'y', count: 1 },
      { name: 'j', count: 1 },
    ]);
    const down: KeyPress = { name: 'down' };
    expect(runs([down, down, down, ...typed('G')])).toEqual([
      { name: 'down', count: 3 },
      { name: 'G', count: 1 },
    ]);
  });

  it('starts where it is asked, and hands back the key itself', () => {
    const keys = typed('jkk');
    expect(runAt(keys, 1)).toEqual({ key: { name: 'k', text: 'k' }, count: 2 });
    expect(runAt(keys, 2)).toEqual({ key: { name: 'k', text: 'k' }, count: 1 });
  });
});

describe('the screen reader\'s keys', () => {
  const browse = initialContactsState(10);
  it('come first, before a modal, but never where a field takes the letters', () => {
    expect(activeScopes({ focus: 'contacts', contacts: browse, reader: true })).toEqual(['reader', 'contacts', 'global']);
    expect(activeScopes({ focus: 'contacts', overlay: 'help', contacts: browse, reader: true })).toEqual(['reader', 'help']);
    expect(activeScopes({ focus: 'contacts', contacts: { ...browse, mode: { kind: 'confirm-delete', id: 'x' } }, reader: true })).toEqual(['reader', 'contacts.confirm']);
    expect(activeScopes({ focus: 'contacts', contacts: { ...browse, mode: { kind: 'filter' } }, reader: true })).toEqual(['contacts.filter']);
    expect(activeScopes({ focus: 'ticker', contacts: browse, pickerOpen: true, reader: true })).toEqual(['ticker.picker']);
    expect(activeScopes({ focus: 'contacts', contacts: browse })).toEqual(['contacts', 'global']);
    expect(resolveKey(activeScopes({ focus: 'ticker', contacts: browse, reader: true }), 't')).toBe('reader.price');
    expect(resolveKey(activeScopes({ focus: 'ticker', contacts: browse }), 't')).toBeUndefined();
  });

  it('take no key a pane or a modal already has', () => {
    const readerKeys = BINDINGS.filter((b) => b.scope === 'reader').flatMap((b) => b.keys);
    const others = BINDINGS.filter((b) => b.scope !== 'reader' && !isTextScope(b.scope) && b.scope !== 'field');
    for (const key of readerKeys) expect(others.filter((b) => b.keys.includes(key)).map((b) => b.scope), key).toEqual([]);
  });
});
