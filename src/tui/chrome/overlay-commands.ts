// The help and the message log, over the panes: opened, closed, paged and scrolled.
import { commandsOf } from '../keys/commands.js';
import type { useOverlay } from '../state/use-overlay.js';

export interface OverlayCommandsDeps {
  overlay: ReturnType<typeof useOverlay>;
  /** The help's last page, and the log's last top line, as laid out now (not as last drawn). */
  lastHelpPage: () => number;
  lastLogTop: () => number;
  /** Rows the log shows at once. */
  rows: number;
}

export function overlayCommands({ overlay, lastHelpPage, lastLogTop, rows }: OverlayCommandsDeps) {
  return commandsOf({
    help: () => overlay.open('help'),
    messages: () => overlay.open('messages'),
    'help.close': () => overlay.close(),
    'messages.close': () => overlay.close(),
    'help.next-page': (_, count) => overlay.scroll(count, lastHelpPage()),
    'help.previous-page': (_, count) => overlay.scroll(-count, lastHelpPage()),
    'messages.down': (_, count) => overlay.scroll(count, lastLogTop()),
    'messages.up': (_, count) => overlay.scroll(-count, lastLogTop()),
    'messages.page-down': (_, count) => overlay.scroll(rows * count, lastLogTop()),
    'messages.page-up': (_, count) => overlay.scroll(-rows * count, lastLogTop()),
  });
}
