// docs/keys.md, made from the keymap (src/tui/keys/keymap.ts) in the help screen's groups, so the
// page cannot say what the dashboard does not do: `npm run docs:keys` writes it, and
// test/scripts/keys-page.test.ts fails while the file differs from what this makes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HELP_GROUPS, READER_GROUP } from '../src/tui/chrome/help-layout.js';
import { BINDINGS } from '../src/tui/keys/keymap.js';

export const KEYS_PAGE = fileURLToPath(new URL('../docs/keys.md', import.meta.url));

const NAMED: Readonly<Record<string, string>> = {
  up: '↑', down: '↓', left: '←', right: '→', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End',
  enter: 'Enter', esc: 'Esc', tab: 'Tab', 'shift-tab': 'Shift-Tab', space: 'Space', backspace: 'Backspace', delete: 'Delete',
};

/** A key name as a person reads it on a keyboard: "ctrl-u" is Ctrl-U, "pagedown" PgDn, "G" G. */
export function keyLabel(name: string): string {
  const named = NAMED[name];
  if (named) return named;
  const chord = /^(ctrl|alt)-(.+)$/.exec(name);
  if (chord) return `${chord[1] === 'ctrl' ? 'Ctrl' : 'Alt'}-${chord[2]!.toUpperCase()}`;
  return name;
}

/** Markdown's table cell: a pipe or a backtick in a key would end it. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');
const code = (key: string): string => (key.includes('`') ? `\`\` ${key} \`\`` : `\`${key}\``);

export function keysPage(): string {
  const lines = [
    '# Keys',
    '',
    '<!-- Made by `npm run docs:keys` from src/tui/keys/keymap.ts; edit the keymap, not this page. -->',
    '',
    'Every key of the dashboard, in the groups the help (`?`) shows them in. The footer shows the',
    'keys of where you are; a key means what its innermost group says (an open field or prompt',
    'first, then the focused pane, then "Anywhere").',
  ];
  for (const [title, scopes] of [...HELP_GROUPS, READER_GROUP]) {
    const bindings = BINDINGS.filter((b) => scopes.includes(b.scope));
    if (bindings.length === 0) continue;
    lines.push('', `## ${title}`, '', '| keys | does |', '|---|---|');
    const said = new Set<string>();
    const keysOf = (keys: readonly string[]) => keys.map((key) => code(keyLabel(key))).join(' ');
    bindings.forEach((binding, at) => {
      // A binding the help lists on the line before it shares that line's words ("next / previous").
      if (binding.listedAbove) return;
      const pair = [binding];
      for (let next = at + 1; bindings[next]?.listedAbove; next++) pair.push(bindings[next]!);
      const row = `| ${cell(pair.map((b) => keysOf(b.keys)).join(' / '))} | ${cell(binding.help)} |`;
      if (said.has(row)) return;
      said.add(row);
      lines.push(row);
    });
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(KEYS_PAGE, keysPage());
  console.log(`wrote ${KEYS_PAGE}`);
}
