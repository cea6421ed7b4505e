// A stand-in for the terminal a Screen writes to: a size, 'resize' events, and every write kept.
import { EventEmitter } from 'node:events';

export class FakeTerminal extends EventEmitter {
  columns = 80;
  rows = 24;
  writes: string[] = [];
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
  /** Everything written so far. */
  get all(): string {
    return this.writes.join('');
  }
  /** Everything written since the last take, and forgets it. */
  take(): string {
    const out = this.all;
    this.writes = [];
    return out;
  }
}
