// The help and the message log as laid out in the space the panes leave them (border, padding and
// a title line inside): the help's pages and the log's lines, made only while each is open.
import { useMemo } from 'react';
import type { Overlay } from '../keys/scopes.js';
import type { StatusSnapshot } from '../state/status.js';
import { helpLines, layoutHelp } from './help-layout.js';
import { messageLines } from './message-log.js';
import { messageLogRows } from './MessageLog.js';

/**
 * `history`: the status line's history as drawn; `latestHistory`: as it is now, for the commands,
 * which may run before the help or the log opened by the key before them is drawn (`?` then PgDn
 * in one read).
 */
export function useOverlayPages(
  kind: Overlay | undefined,
  box: { width: number; height: number } | undefined,
  history: StatusSnapshot['history'],
  latestHistory: () => StatusSnapshot['history'],
) {
  const width = box ? box.width - 4 : 0;
  const rows = box ? box.height - 3 : 0;
  // Laid out only while the help is open: measuring every key's text cost ~11 ms of each start.
  const helpOpen = kind === 'help';
  const help = useMemo(() => (helpOpen ? layoutHelp(helpLines(), width, rows) : undefined), [helpOpen, width, rows]);
  // Wrapped only while the log is open: the history changes with every notice.
  const logOpen = kind === 'messages';
  const logLines = useMemo(() => (logOpen ? messageLines(history, width) : []), [logOpen, history, width]);
  const lastTop = (lines: readonly unknown[]) => Math.max(0, lines.length - messageLogRows(rows + 3));
  return {
    help,
    logLines,
    logMax: lastTop(logLines),
    /** The help's last page and the log's last top line as they are now, drawn yet or not. */
    lastHelpPage: () => (help ?? layoutHelp(helpLines(), width, rows)).pages.length - 1,
    lastLogTop: () => lastTop(messageLines(latestHistory(), width)),
    /** Rows the log shows at once. */
    rows,
  };
}
