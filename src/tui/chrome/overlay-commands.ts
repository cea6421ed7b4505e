// The help and the message log, over the panes: opened, closed, paged and scrolled.
import { commandsOf } from '../keys/commands.js';
import type { useOverlay } from '../state/use-overlay.js';

export interface OverlayCommandsDeps {
  overlay: ReturnType<typeof useOverlay>;
  /** The help's last page, and the log's last top line, as laid out now. */
  helpLastPage: number;
  logMax: number;
  /** Rows the log shows at once. */
  rows: number;
}

export function overlayCommands({ overlay, helpLastPage, logMax, rows }: OverlayCommandsDeps) {
  return commandsOf({
    help: () => overlay.open('help'),
    messages: () => overlay.open('messages'),
    'help.close': () => overlay.close(),
    'messages.close': () => overlay.close(),
    'help.next-page': (_, count) => overlay.scroll(count, helpLastPage),
    'help.previous-page': (_, count) => overlay.scroll(-count, helpLastPage),
    'messages.down': (_, count) => overlay.scroll(count, logMax),
    'messages.up': (_, count) => overlay.scroll(-count, logMax),
    'messages.page-down': (_, count) => overlay.scroll(rows * count, logMax),
    'messages.page-up': (_, count) => overlay.scroll(-rows * count, logMax),
  });
}
