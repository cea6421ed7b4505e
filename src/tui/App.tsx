// Layout only: where the panes, the status line and the footer go, at the sizes layout.ts says.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { Layout } from './layout.js';
import wrapAnsi from 'wrap-ansi';
import { useGlyphs } from './style/glyphs.js';
import { frameRows, MIN_COLUMNS, MIN_ROWS } from './terminal/terminal-size.js';

export interface AppProps {
  layout: Layout;
  columns: number;
  rows: number;
  contacts: ReactNode;
  ticker: ReactNode;
  help: ReactNode | undefined;
  status: ReactNode;
  footer: ReactNode;
  /** What the keys do while the terminal is too small ("q quit · Ctrl-Z suspend"). */
  hiddenKeys?: string;
}

export function App({ layout, columns, rows, contacts, ticker, help, status, footer, hiddenKeys }: AppProps) {
  const glyphs = useGlyphs();
  if (layout.kind === 'too-small') {
    // Wrapped, so the size it needs is never the part cut off (40×10 is narrower than the line).
    // The keys that still work go on a line of their own, after the size it needs.
    const text = glyphs.text(`Terminal too small: ${columns}×${rows}, tickbook needs ${MIN_COLUMNS}×${MIN_ROWS}${hiddenKeys ? `\n${hiddenKeys}` : ''}`);
    const lines = wrapAnsi(text, Math.max(1, columns), { hard: true }).split('\n').slice(0, frameRows({ columns, rows }));
    return <Text>{lines.join('\n')}</Text>;
  }
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
