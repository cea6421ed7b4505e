// A terminal's stdin for the paced input on its own (no Ink): reads are emitted as 'data', and
// what is asked of it (raw mode, ref counts, pausing) is recorded; and a reader that takes what
// the paced input gives as Ink does.
import { EventEmitter } from 'node:events';
import type { PacedInput, TerminalInput } from '../../src/tui/keys/paced-input.js';

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

/** Reads as Ink does: on 'readable', everything there is, into the array returned. */
export function reader(input: PacedInput, seen: string[] = []): string[] {
  input.on('readable', () => {
    let chunk: string | null;
    while ((chunk = input.read() as string | null) !== null) seen.push(chunk);
  });
  return seen;
}
