// Layout only: where the panes, the status line and the footer go, at the sizes layout.ts says;
// or, on a terminal too small for them, what it needs.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { Layout } from './layout.js';
import wrapAnsi from 'wrap-ansi';
import { useGlyphs } from './style/glyphs.js';
import { frameRows, MIN_COLUMNS, MIN_ROWS } from './terminal/terminal-size.js';

export interface AppProps {
  layout: Exclude<Layout, { kind: 'too-small' }>;
  contacts: ReactNode;
  ticker: ReactNode;
  help: ReactNode | undefined;
  status: ReactNode;
  footer: ReactNode;
}

/** The terminal is too small for the panes: the size it is, the size tickbook needs, and what the keys still do ("q quit · Ctrl-Z suspend"). */
export function TooSmall({ columns, rows, keys }: { columns: number; rows: number; keys: string }) {
  const glyphs = useGlyphs();
  // Wrapped, so the size it needs is never the part cut off (40×10 is narrower than the line).
  // The keys that still work go on a line of their own, after the size it needs.
  const text = glyphs.text(`Terminal too small: ${columns}×${rows}, tickbook needs ${MIN_COLUMNS}×${MIN_ROWS}${keys ? `\n${keys}` : ''}`);
  const lines = wrapAnsi(text, Math.max(1, columns), { hard: true }).split('\n').slice(0, frameRows({ columns, rows }));
  return <Text>{lines.join('\n')}</Text>;
}

export function App({ layout, contacts, ticker, help, status, footer }: AppProps) {
  const panes = help ?? (
    <Box flexDirection={layout.kind === 'side-by-side' ? 'row' : 'column'} height={layout.panes}>
      {contacts}
      {ticker}
    </Box>
  );
  return (
    <Box flexDirection="column" width={layout.width}>
      {panes}
      {status}
      {footer}
    </Box>
  );
}
