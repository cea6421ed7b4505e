// The help and the message log as laid out in the space the panes leave them (border, padding and
// a title line inside): the help's pages and the log's lines, made only while each is open.
import { useMemo } from 'react';
import type { Overlay } from '../keys/scopes.js';
import type { StatusSnapshot } from '../state/status.js';
import { helpLines, layoutHelp } from './help-layout.js';
import { messageLines } from './message-log.js';
import { messageLogRows } from './MessageLog.js';

export function useOverlayPages(kind: Overlay | undefined, box: { width: number; height: number } | undefined, history: StatusSnapshot['history']) {
  const width = box ? box.width - 4 : 0;
  const rows = box ? box.height - 3 : 0;
  // Laid out only while the help is open: measuring every key's text cost ~11 ms of each start.
  const helpOpen = kind === 'help';
  const help = useMemo(() => (helpOpen ? layoutHelp(helpLines(), width, rows) : undefined), [helpOpen, width, rows]);
  // Wrapped only while the log is open: the history changes with every notice.
  const logOpen = kind === 'messages';
  const logLines = useMemo(() => (logOpen ? messageLines(history, width) : []), [logOpen, history, width]);
  return {
    help,
    helpLastPage: (help?.pages.length ?? 1) - 1,
    logLines,
    logMax: Math.max(0, logLines.length - messageLogRows(rows + 3)),
    /** Rows the log shows at once. */
    rows,
  };
}
