// The message log's lines: the latest status messages, newest first, each whole, wrapped to the
// width (the status line cuts a long message; here it is read in full).
import wrapAnsi from 'wrap-ansi';
import { drawn } from '../../text/sanitize.js';
import { absoluteTime } from '../../text/time.js';
import type { StatusMessage } from '../state/status.js';

/** "23:59:01 ✗ " */
const PREFIX_WIDTH = 11;

export interface LogLine {
  text: string;
  kind: StatusMessage['kind'];
}

export function messageLines(history: readonly StatusMessage[], width: number): LogLine[] {
  const room = Math.max(10, width - PREFIX_WIDTH);
  const lines: LogLine[] = [];
  for (const message of [...history].reverse()) {
    const time = absoluteTime(new Date(message.at)).slice(11, 19);
    const mark = message.kind === 'error' ? '✗' : '·';
    const wrapped = wrapAnsi(drawn(message.text), room, { hard: true, trim: true }).split('\n');
    wrapped.forEach((part, i) => {
      lines.push({ kind: message.kind, text: i === 0 ? `${time} ${mark} ${part}` : `${' '.repeat(PREFIX_WIDTH)}${part}` });
    });
  }
  return lines;
}
