// The keys of what has focus, from the same table the router uses.
import { Text } from 'ink';
import { type Entry, fit, fitEntries, width as textWidth } from '../../text/width.js';
import { bindingsFor, type Scope } from '../keys/keymap.js';
import { useTheme } from '../theme.js';

/** The footer's keys of these scopes, in keymap order: "n/PgDn next page". */
function footerEntries(scopes: readonly Scope[]): string[] {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const scope of scopes) {
    for (const binding of bindingsFor(scope)) {
      if (!binding.footer || seen.has(binding.label)) continue;
      seen.add(binding.label);
      parts.push(`${binding.label} ${binding.help}`);
    }
  }
  return parts;
}

export const footerText = (scopes: readonly Scope[]): string => footerEntries(scopes).join(' · ');

/**
 * The pane's keys, as many whole ones as fit (the keymap's order is their importance; `extra`,
 * the undo offer, comes first), then the global ones (help, quit), which always show.
 */
export function footerLine(scopes: readonly Scope[], width: number, extra?: string): string {
  const globalKeys = scopes.includes('global') ? footerText(['global']) : '';
  const entries: Entry[] = footerEntries(scopes.filter((scope) => scope !== 'global')).map((text, i) => ({ text, rank: i + 1 }));
  if (extra) entries.unshift({ text: extra, rank: 0 });
  if (!globalKeys) return ` ${fitEntries(entries, width - 1, ' · ', false)}`;
  const right = ` │ ${globalKeys}`;
  return `${fit(` ${fitEntries(entries, Math.max(0, width - textWidth(right) - 1), ' · ', false)}`, Math.max(0, width - textWidth(right)))}${right}`;
}

export function Footer({ scopes, width, extra }: { scopes: readonly Scope[]; width: number; extra?: string | undefined }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
      {footerLine(scopes, width, extra)}
    </Text>
  );
}
