// The keys of what has focus, from the same table the router uses.
import { Text } from 'ink';
import { memo } from 'react';
import { dropToFit, type Entry, fit, width as textWidth } from '../../text/width.js';
import { bindingsFor, type Scope } from '../keys/keymap.js';
import { type Glyphs, UNICODE, useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';

/**
 * The footer's keys of these scopes, in keymap order, each once: "n/PgDn next page", or `brief`,
 * "n/p pages" (a key whose brief is '' left out: the one before it says it). A key that a scope
 * before it binds too (Tab in the alerts view) is that scope's, and not said twice.
 */
function footerEntries(scopes: readonly Scope[], before: readonly Scope[] = [], brief = false): { label: string; text: string }[] {
  const seen = new Set<string>();
  const parts: { label: string; text: string }[] = [];
  const taken = new Set<string>();
  for (const scope of before) for (const binding of bindingsFor(scope)) for (const key of binding.keys) taken.add(key);
  for (const scope of scopes) {
    for (const binding of bindingsFor(scope)) {
      if (!binding.footer || seen.has(binding.label) || binding.keys.every((key) => taken.has(key))) continue;
      seen.add(binding.label);
      const text = brief ? (binding.brief ?? `${binding.label} ${binding.help}`) : `${binding.label} ${binding.help}`;
      if (text !== '') parts.push({ label: binding.label, text });
    }
  }
  return parts;
}

export const footerText = (scopes: readonly Scope[]): string =>
  footerEntries(scopes)
    .map((entry) => entry.text)
    .join(' · ');

/** The order keys give way in a narrow footer: what opens every other key goes last. */
const GLOBAL_RANK: Readonly<Record<string, number>> = { '?': 0, q: 2, Tab: 4 };

interface FooterEntry extends Entry {
  global: boolean;
}

/**
 * The pane's keys (`extra`, the undo offer, first), then after a bar the global ones. Each key in
 * its full words when every one fits, else each in its brief words (`Enter chart`), so that a
 * narrow line shows several keys rather than one. When even those do not fit, whole keys give
 * way, never half a word: help stays longest, then the pane's first key and the undo offer, then
 * quit, then the rest in keymap order.
 */
export function footerLine(scopes: readonly Scope[], width: number, extra?: string, glyphs: Glyphs = UNICODE): string {
  const entriesOf = (brief: boolean): FooterEntry[] => {
    const pane = footerEntries(scopes.filter((scope) => scope !== 'global'), [], brief);
    return [
      ...(extra ? [{ text: glyphs.text(extra), rank: 1, global: false }] : []),
      ...pane.map(({ text }, i) => ({ text: glyphs.text(text), rank: i === 0 ? 1 : i + 4, global: false })),
      ...(scopes.includes('global')
        ? footerEntries(['global'], scopes.filter((scope) => scope !== 'global'), brief).map(({ label, text }) => ({ text: glyphs.text(text), rank: GLOBAL_RANK[label] ?? 3, global: true }))
        : []),
    ];
  };
  const parts = (kept: readonly FooterEntry[]) => {
    const right = kept.filter((entry) => entry.global).map((entry) => entry.text).join(glyphs.separator);
    return {
      left: ` ${kept.filter((entry) => !entry.global).map((entry) => entry.text).join(glyphs.separator)}`,
      bar: right === '' ? '' : `${glyphs.bar}${right}`,
    };
  };
  const fits = (kept: readonly FooterEntry[]): boolean => {
    const { left, bar } = parts(kept);
    return textWidth(left) + textWidth(bar) <= width;
  };
  const full = entriesOf(false);
  const { left, bar } = parts(fits(full) ? full : dropToFit(entriesOf(true), fits));
  return `${fit(left, Math.max(0, width - textWidth(bar)), 'left', glyphs.ellipsis)}${bar}`;
}

interface FooterProps {
  scopes: readonly Scope[];
  width: number;
  extra?: string | undefined;
}

const sameFooter = (a: FooterProps, b: FooterProps): boolean =>
  a.width === b.width && a.extra === b.extra && a.scopes.length === b.scopes.length && a.scopes.every((scope, i) => scope === b.scopes[i]);

/**
 * Drawn again only when its keys change: the dashboard renders on every tick, and the scopes come
 * as a new array each time with the same names in it.
 */
export const Footer = memo(function Footer({ scopes, width, extra }: FooterProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  return (
    <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
      {footerLine(scopes, width, extra, glyphs)}
    </Text>
  );
}, sameFooter);
