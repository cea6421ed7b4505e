// A terminal's stdin for the terminal reader on its own (no Ink): reads are emitted as 'data', and
// what is asked of it (raw mode, ref counts, pausing) is recorded; and a handler that writes down
// what the reader hands it.
import { EventEmitter } from 'node:events';
import type { InputEvent, TerminalInput, TerminalReader } from '../../src/tui/keys/terminal-reader.js';

export class FakeStdin extends EventEmitter implements TerminalInput {
  isTTY = true;
  raw: boolean[] = [];
  refs = 0;
  paused = false;
  setRawMode(mode: boolean) {
    this.raw.push(mode);
  }
  ref() {
    this.refs++;
  }
  unref() {
    this.refs--;
  }
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
}

/** An event as a test reads it: a key by its name, a paste as `paste:` and its text. */
export const shown = (event: InputEvent): string =>
  event.kind === 'key' ? event.key.name : event.kind === 'paste' ? `paste:${event.text}` : `mouse:${event.report.action}@${event.report.column},${event.report.row}×${event.count}`;

/** Becomes the reader's handler: every event handed over, as `shown`, and each batch's size. */
export function reader(input: TerminalReader, seen: string[] = []): string[] & { batches: number[]; events: InputEvent[] } {
  const log = Object.assign(seen, { batches: [] as number[], events: [] as InputEvent[] });
  input.handler = (events) => {
    log.batches.push(events.length);
    log.events.push(...events);
    log.push(...events.map(shown));
  };
  return log;
}
