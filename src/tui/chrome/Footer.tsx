// The keys of what has focus, from the same table the router uses.
import { Text } from 'ink';
import { fit, truncate, width as textWidth } from '../../text/width.js';
import { bindingsFor, type Scope } from '../keys/keymap.js';
import { useTheme } from '../theme.js';

export function footerText(scopes: readonly Scope[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const scope of scopes) {
    for (const binding of bindingsFor(scope)) {
      if (!binding.footer || seen.has(binding.label)) continue;
      seen.add(binding.label);
      parts.push(`${binding.label} ${binding.help}`);
    }
  }
  return parts.join(' · ');
}

/** The pane's keys, cut to fit, then the global ones (help, quit), which always show. */
export function footerLine(scopes: readonly Scope[], width: number, extra?: string): string {
  const globalKeys = scopes.includes('global') ? footerText(['global']) : '';
  const local = footerText(scopes.filter((scope) => scope !== 'global'));
  const left = extra ? `${extra} · ${local}` : local;
  if (!globalKeys) return truncate(` ${left}`, width);
  const right = ` │ ${globalKeys}`;
  return `${fit(` ${left}`, Math.max(0, width - textWidth(right)))}${right}`;
}

export function Footer({ scopes, width, extra }: { scopes: readonly Scope[]; width: number; extra?: string | undefined }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
      {footerLine(scopes, width, extra)}
    </Text>
  );
}
