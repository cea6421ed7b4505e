// The keys of what has focus, from the same table the router uses.
import { Text } from 'ink';
import { truncate } from '../../text/width.js';
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

export function Footer({ scopes, width, extra }: { scopes: readonly Scope[]; width: number; extra?: string | undefined }) {
  const theme = useTheme();
  const text = extra ? `${extra} · ${footerText(scopes)}` : footerText(scopes);
  return (
    <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
      {truncate(` ${text}`, width)}
    </Text>
  );
}
