// O: the mouse reported to the dashboard, or left to the terminal (to select text), and the
// choice kept for the next run.
import { commandsOf } from '../keys/commands.js';
import type { StatusBoard } from '../state/status.js';

export interface MouseCommandsDeps {
  /** Whether the terminal reports the mouse now. */
  on: { current: boolean };
  /** Tells the terminal; undefined when this run does not own it. */
  tell: ((on: boolean) => void) | undefined;
  /** Keeps the choice; throws when it cannot be saved. */
  persist: ((on: boolean) => void) | undefined;
  status: StatusBoard;
  /** Why the mouse is not to be had in this run at all (a screen reader's), said instead. */
  unavailable?: string | undefined;
}

export function mouseCommands({ on: mouseOn, tell, persist, status, unavailable }: MouseCommandsDeps) {
  return commandsOf({
    mouse: () => {
      if (unavailable) return status.notice(unavailable);
      if (!tell) return status.notice('the mouse needs the terminal, which this run does not own');
      const on = !mouseOn.current;
      mouseOn.current = on;
      tell(on);
      const said = on ? 'mouse on: click, double-click and the wheel; O leaves it to the terminal' : 'mouse off: the terminal selects text again; O turns it back on';
      try {
        persist?.(on);
        status.notice(said);
      } catch (error) {
        status.notice(`${said} (for this session; not saved: ${(error as Error).message})`);
      }
    },
  });
}
