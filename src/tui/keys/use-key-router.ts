// The dashboard's keys, pastes and clicks, each taken to what it does now: a key to the command
// its binding names in the innermost live scope (or to the open field, as typing), a paste to the
// open field only, a click to the command a key would run there. Keys behind a contacts move
// still under way wait for the page it lands on.
import { useInput } from 'ink';
import { useRef } from 'react';
import { type ClickRun, nextClick } from '../mouse/clicks.js';
import type { MouseAreas } from '../mouse/mouse-areas.js';
import { mouseSteps, type MouseStep } from '../mouse/mouse-steps.js';
import type { StatusStore } from '../state/status.js';
import { useKeyRuns, useMouse, usePaste } from './input-target.js';
import { keyNames } from './key-name.js';
import { type KeyRun, keyRuns } from './key-runs.js';
import { canRun, type Command, CONTACT_MOVES, COUNTED, isTextScope, resolveKey, type Scope } from './keymap.js';
import { FIELD_PASTE_MAX, pastedLine } from './paste.js';

/** Key names the router gives, as the characters a text field edits with. */
const FIELD_KEYS: Readonly<Record<string, string>> = { space: ' ', backspace: '\u007f' };

export interface KeyRouter {
  /** The scopes as they are now, after whatever the keys before this one changed, innermost first. */
  liveScopes: () => Scope[];
  run: (command: Command, scope: Scope, count: number) => void;
  /** Typed keys for the open field in `scope`, as the field would take them. */
  feedField: (scope: Scope, keys: string) => void;
  /** The open field takes keys itself (its TextField is listening). */
  fieldListening: { readonly current: boolean };
  /** The dashboard is quitting: keys do nothing, but a second Ctrl-C leaves at once. */
  quitting: { readonly current: boolean };
  exit: () => void;
  /** The contacts list is moving to another page, and what to run once it lands. */
  contactsMove: { moving: () => boolean; afterMove: (then: () => void) => void };
  status: StatusStore;
  mouse: { on: { readonly current: boolean }; areas: MouseAreas };
}

export function useKeyRouter({ liveScopes, run, feedField, fieldListening, quitting, exit, contactsMove, status, mouse }: KeyRouter): void {
  // A paste is text for the field that has focus, never keys: with no field open it is dropped,
  // and said so, rather than run as commands (a pasted "dy" would delete a contact).
  usePaste((text) => {
    const scope = liveScopes()[0]!;
    if (!isTextScope(scope)) {
      status.notice('paste ignored: no field is open to paste into');
      return undefined;
    }
    const whole = [...pastedLine(text)];
    const line = whole.slice(0, FIELD_PASTE_MAX).join('');
    if (whole.length > FIELD_PASTE_MAX) status.notice(`paste cut to its first ${FIELD_PASTE_MAX} characters`);
    // A field just opened is not taking keys yet: the paste goes in as the router feeds keys.
    if (fieldListening.current) return line;
    feedField(scope, line);
    return undefined;
  });

  // Runs of one key outside a text field come from the paced input as one key and a count.
  const repeats = useKeyRuns(() => !isTextScope(liveScopes()[0]!));

  /**
   * Keys that came while the contacts list was moving to another page, to act on the page it
   * lands on ("G" then Enter opens the last contact, not the row the walk left), in order.
   */
  const waiting = useRef<KeyRun[]>([]);
  const pressWaiting = (): void => {
    for (const key of waiting.current.splice(0)) press(key.name, key.count);
  };

  /** One key press, `count` times over: a counted command once, any other once per press. */
  const press = (name: string, count: number): void => {
    for (let done = 0; done < count; done++) {
      // While quitting waits for writes, a second Ctrl-C leaves at once.
      if (quitting.current) {
        if (name === 'ctrl-c') exit();
        return;
      }
      // Keys that arrive together ("\tx": Tab, then x) each meet the scopes the one before left
      // (after Tab, x belongs to the ticker): the scopes are worked out afresh for every key.
      const live = liveScopes();
      const command = resolveKey(live, name);
      // Quitting never waits; a key behind one that waits waits too; moves add to the one under way.
      const mustWait =
        command !== 'quit' &&
        (waiting.current.length > 0 || (live[0]!.startsWith('contacts') && !(command && CONTACT_MOVES.has(command)) && contactsMove.moving()));
      if (mustWait) {
        if (waiting.current.length === 0) contactsMove.afterMove(pressWaiting);
        waiting.current.push({ name, count: count - done });
        return;
      }
      if (command && COUNTED.has(command)) return run(command, live[0]!, count - done);
      if (command) run(command, live[0]!, 1);
      else if (isTextScope(live[0]!) && !fieldListening.current) {
        // One character each; applyTyped drops what a field must not hold.
        const keys = FIELD_KEYS[name] ?? name;
        if ([...keys].length === 1) feedField(live[0]!, keys);
      }
    }
  };

  /** A command from the mouse, run as its key would be run now, and only if a key could run it. */
  const pointerStep = ({ command, count }: MouseStep): void => {
    if (quitting.current) return;
    const live = liveScopes();
    if (!canRun(live, command)) return;
    // The list is on its way to another page: the row clicked is no longer the one there.
    if (live[0]!.startsWith('contacts') && contactsMove.moving()) return;
    run(command, live[0]!, count);
  };

  const lastClick = useRef<ClickRun | undefined>(undefined);
  useMouse((report, count, at) => {
    // Reports already on their way when O turned the mouse off.
    if (!mouse.on.current) return;
    const hits = mouse.areas.at(report.column, report.row);
    let clicks = 1;
    if (report.action === 'press' && report.button === 'left') {
      lastClick.current = nextClick(lastClick.current, { column: report.column, row: report.row, at });
      clicks = lastClick.current.count;
    }
    for (const step of mouseSteps(report, hits, clicks, count)) pointerStep(step);
  });

  useInput(
    (input, key) => {
      for (const { name, count } of keyRuns(keyNames(input, key), repeats())) press(name, count);
    },
    { isActive: true },
  );
}
