// The manual page, tickbook(1), made from the help texts (help.ts) as they are: each in a block
// shown as written, so `man tickbook` says what `tickbook --help` and `tickbook COMMAND --help`
// say, laid out the same. scripts/write-manual.mjs writes it at build time.
import { HELP, HELPS } from './help.js';

/** Text as roff shows it literally: backslashes, hyphens (which groff would make typographic), anything not ASCII and a leading dot or quote escaped. */
function literal(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    // groff reads ASCII unless preconv runs first (man runs it; groff alone does not).
    .replace(/[^\n\x20-\x7e]/gu, (char) => `\\[u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** A block shown as written: no filling, no adjusting, no hyphenation. */
const block = (text: string): string => `.nf\n.ad l\n.nh\n${literal(text.replace(/\n+$/, ''))}\n.fi\n.ad b\n.hy\n`;

export function manual(version: string): string {
  const [usage = '', ...rest] = HELP.split('\n');
  const description = rest.join('\n').replace(/^\n+/, '');
  const commands = Object.entries(HELPS)
    .map(([name, help]) => `.SS ${literal(`tickbook ${name}`)}\n${block(help)}`)
    .join('');
  return (
    `.\\" Made from tickbook's help texts by scripts/write-manual.mjs; do not edit.\n` +
    `.TH TICKBOOK 1 "" "tickbook ${literal(version)}" "User Commands"\n` +
    `.SH NAME\n` +
    `tickbook \\- a keyboard\\-driven terminal dashboard: your contacts beside a live stock watch window\n` +
    `.SH SYNOPSIS\n${block(usage)}` +
    `.SH DESCRIPTION\n${block(description)}` +
    `.SH COMMANDS\n${commands}` +
    `.SH SEE ALSO\n` +
    `The docs where tickbook is installed (lib/node_modules/tickbook/docs, or docs/ in a clone):\n` +
    `keys.md, every key of the dashboard; guide.md, the dashboard; config.md, the files it keeps\n` +
    `and the environment variables it reads; security.md. In the dashboard, ? lists every key.\n`
  );
}
