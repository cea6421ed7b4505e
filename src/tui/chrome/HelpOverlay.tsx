// Every key, grouped by where it works, laid out in as many columns as the height needs.
import { Box, Text } from 'ink';
import { fit } from '../../text/width.js';
import { BINDINGS, type Scope } from '../keys/keymap.js';
import { useTheme } from '../theme.js';

const GROUPS: [string, Scope[]][] = [
  ['Anywhere', ['global']],
  ['Contacts', ['contacts']],
  ['An open contact', ['contacts.detail']],
  ['Confirming a delete', ['contacts.confirm']],
  ['Renaming', ['contacts.rename']],
  ['Creating', ['contacts.create']],
  ['Filtering', ['contacts.filter']],
  ['Ticker', ['ticker']],
  ['Symbol picker', ['ticker.picker']],
  ['This help', ['help']],
];

export function helpLines(): { heading: boolean; text: [string, string] }[] {
  const lines: { heading: boolean; text: [string, string] }[] = [];
  for (const [title, scopes] of GROUPS) {
    lines.push({ heading: true, text: [title, ''] });
    for (const binding of BINDINGS.filter((b) => scopes.includes(b.scope))) {
      lines.push({ heading: false, text: [binding.label, binding.help] });
    }
  }
  return lines;
}

export function HelpOverlay({ width, height }: { width: number; height: number }) {
  const theme = useTheme();
  const lines = helpLines();
  const rows = Math.max(1, height - 4);
  const columns = Math.ceil(lines.length / rows);
  const columnWidth = Math.max(16, Math.floor((width - 4) / columns));
  const keyWidth = Math.min(12, Math.floor(columnWidth * 0.4));
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="double" paddingX={1} {...(theme.focusBorder && { borderColor: theme.focusBorder })}>
      <Text bold {...(theme.accent && { color: theme.accent })}>
        tickbook keys · Esc closes
      </Text>
      <Box>
        {Array.from({ length: columns }, (_, c) => (
          <Box key={c} flexDirection="column" width={columnWidth}>
            {lines.slice(c * rows, (c + 1) * rows).map((line, i) => (
              <Text key={i} wrap="truncate-end" bold={line.heading}>
                {line.heading ? line.text[0] : `${fit(line.text[0], keyWidth)} ${line.text[1]}`}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
