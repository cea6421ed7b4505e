// A clock and timers that move only when a test moves them: what waits for a time runs, in order,
// as `advance` passes it, and nothing runs on its own. For tests that would otherwise sleep and
// then check that nothing happened.
import type { Timers } from '../../src/tui/contacts/write-ledger.js';

export class ManualClock {
  #now = 0;
  #next = 0;
  readonly #due = new Map<number, { at: number; wake: () => void }>();

  readonly now = (): number => this.#now;

  readonly timers: Timers = {
    set: (wake, ms) => {
      const id = this.#next++;
      this.#due.set(id, { at: this.#now + Math.max(0, ms), wake });
      return id;
    },
    clear: (handle) => {
      this.#due.delete(handle as number);
    },
  };

  /** Moves the clock `ms` on, running every timer that comes due on the way, at its time. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const [id, first] = [...this.#due].filter(([, timer]) => timer.at <= until).sort(([a, x], [b, y]) => x.at - y.at || a - b)[0] ?? [];
      if (id === undefined || !first) break;
      this.#due.delete(id);
      this.#now = first.at;
      first.wake();
    }
    this.#now = until;
  }
}
