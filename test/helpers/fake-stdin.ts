// A terminal's stdin for the terminal reader on its own (no Ink): reads are emitted as 'data'
// (send), and what is asked of it (raw mode, pausing) is recorded; and a handler that writes down
// what the reader hands it.
import { EventEmitter } from 'node:events';
import type { InputEvent, TerminalInput, TerminalReader } from '../../src/tui/keys/terminal-reader.js';

export class FakeStdin extends EventEmitter implements TerminalInput {
  isTTY = true;
  raw: boolean[] = [];
  paused = false;
  setRawMode(mode: boolean) {
    this.raw.push(mode);
  }
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
  /** One read of the terminal: text as its UTF-8 bytes, or the bytes themselves. */
  send(read: string | Buffer | number[]) {
    this.emit('data', typeof read === 'string' ? Buffer.from(read) : Buffer.from(read));
  }
}

/** An event as a test reads it: a key by its name, a paste as `paste:` and its text. */
export const shown = (event: InputEvent): string =>
  event.kind === 'key' ? event.key.name : event.kind === 'paste' ? `paste:${event.text}` : `mouse:${event.report.action}@${event.report.column},${event.report.row}×${event.count}`;

/**
 * Becomes the reader's handler: every event handed over, as `shown`, and each batch's size. The
 * log is the array of what was shown; `batches` and `events` are on it out of sight of toEqual, so
 * it equals a plain list of names.
 */
export function reader(input: TerminalReader, seen: string[] = []): string[] & { batches: number[]; events: InputEvent[] } {
  const log = Object.defineProperties(seen, {
    batches: { value: [] as number[], configurable: true },
    events: { value: [] as InputEvent[], configurable: true },
  }) as string[] & { batches: number[]; events: InputEvent[] };
  input.handler = (events) => {
    log.batches.push(events.length);
    log.events.push(...events);
    log.push(...events.map(shown));
  };
  return log;
}
