// The screen reader's keys: the selected price read on request (t), where the keys act said
// again (o), every row of the pane read (L), and the status line as a sentence (.).
import { commandsOf } from '../keys/commands.js';
import type { ReaderOutput } from './reader-output.js';

export interface ReaderCommandsParts {
  /** Undefined when the dashboard is drawn for the eye: the keys are not live then. */
  output: ReaderOutput | undefined;
  /** Every row of the pane with the focus, a line each; none when something over it has the keys (then L says where you are). */
  paneRows: () => string[];
  /** The status line, as a sentence. */
  statusSentence: () => string;
}

export function readerCommands({ output, paneRows, statusSentence }: ReaderCommandsParts) {
  return commandsOf({
    'reader.price': () => output?.readPrice(),
    'reader.where': () => output?.repeat(),
    'reader.pane': () => {
      const rows = paneRows();
      if (rows.length > 0) output?.say(...rows);
      else output?.repeat();
    },
    'reader.status': () => output?.say(statusSentence()),
  });
}
