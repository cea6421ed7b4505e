// The dashboard's one input handler: each read's keys, pastes and clicks, in order, each taken to
// what it does now. A key goes to the command its binding names in the innermost live scope (the
// open modal, then the focused pane, then global: keys/scopes.ts), or, where a text field is open
// and no binding takes it, to the field; a paste goes to the open field only; a click to the
// command a key would run there. Every one of them is worked out against the latest state, so
// the keys of one read are handled at once, with one render after them. Keys behind a contacts
// move still under way wait for the page it lands on.
import { useRef } from 'react';
import { type ClickRun, nextClick } from '../mouse/clicks.js';
import type { MouseAreas } from '../mouse/mouse-areas.js';
import { mouseSteps, type MouseStep, rowClicked } from '../mouse/mouse-steps.js';
import type { Hit, MouseArea } from '../mouse/mouse-areas.js';
import type { StatusBoard } from '../state/status.js';
import type { OpenField } from '../components/field-commands.js';
import { useInputHandler } from './input-source.js';
import { type KeyRun, runAt } from './key-runs.js';
import { canRun, type Command, CONTACT_MOVES, COUNTED, isTextScope, resolveKey, type Scope } from './keymap.js';
import { FIELD_PASTE_MAX, pastedLine } from './paste.js';
import type { InputEvent } from './terminal-reader.js';
import type { KeyPress } from './terminal-input.js';

export interface KeyRouter {
  /** The scopes as they are now, after whatever the keys before this one changed, innermost first. */
  liveScopes: () => Scope[];
  run: (command: Command, scope: Scope, count: number) => void;
  /** The open field in `scope`, which takes typing and pastes. */
  field: (scope: Scope) => OpenField | undefined;
  /** The dashboard is quitting: keys do nothing, but a second Ctrl-C leaves at once. */
  quitting: { readonly current: boolean };
  /** How a second Ctrl-C leaves at once: the terminal given back now, not after the writes settle. */
  leaveNow?: (() => void) | undefined;
  exit: () => void;
  /** The contacts list is moving to another page, and what to run once it lands. */
  contactsMove: { moving: () => boolean; afterMove: (then: () => void) => void };
  status: StatusBoard;
  mouse: { on: { readonly current: boolean }; areas: MouseAreas };
}

export function useKeyRouter({ liveScopes, run, field, quitting, exit, leaveNow, contactsMove, status, mouse }: KeyRouter): void {
  // A paste is text for the field that has focus, never keys: with no field open it is dropped,
  // and said so, rather than run as commands (a pasted "dy" would delete a contact).
  const paste = (text: string): void => {
    // Behind keys waiting for a contacts move (G, then / and a pasted name), the paste waits too.
    if (waiting.current.length > 0) {
      waiting.current.push({ paste: text });
      return;
    }
    const scope = liveScopes()[0]!;
    const open = isTextScope(scope) ? field(scope) : undefined;
    if (!open) return status.notice('paste ignored: no field is open to paste into');
    const whole = [...pastedLine(text)];
    if (whole.length > FIELD_PASTE_MAX) status.notice(`paste cut to its first ${FIELD_PASTE_MAX} characters`);
    open.input({ kind: 'type', text: whole.slice(0, FIELD_PASTE_MAX).join('') });
  };

  /** What a key no binding takes does in an open field: Backspace deletes, a character types. */
  const typeInto = (scope: Scope, key: KeyPress): void => {
    const open = field(scope);
    if (key.name === 'backspace') open?.input({ kind: 'backspace' });
    else if (key.text !== undefined) open?.input({ kind: 'type', text: key.text });
  };

  /**
   * Keys that came while the contacts list was moving to another page, to act on the page it
   * lands on ("G" then Enter opens the last contact, not the row the walk left), in order.
   */
  const waiting = useRef<(KeyRun | { paste: string })[]>([]);
  const pressWaiting = (): void => {
    // The latest render's: the keys wait across renders, and each command reads what is now.
    for (const entry of waiting.current.splice(0)) {
      if ('paste' in entry) latestPaste.current(entry.paste);
      else latestPress.current(entry.key, entry.count);
    }
  };

  /** One key press, `count` times over: a counted command once, any other once per press. */
  const press = (key: KeyPress, count: number): void => {
    for (let done = 0; done < count; done++) {
      // While quitting waits for writes, a second Ctrl-C leaves at once.
      if (quitting.current) {
        if (key.name === 'ctrl-c') (leaveNow ?? exit)();
        return;
      }
      // Keys that arrive together ("\tx": Tab, then x) each meet the scopes the one before left
      // (after Tab, x belongs to the ticker): the scopes are worked out afresh for every key.
      const live = liveScopes();
      const command = resolveKey(live, key.name);
      // Esc stops a walk under way at once, however many keys wait behind it: they were typed for
      // the page it was going to, which it will not reach now, so they go too.
      if (command === 'contacts.stop' && live[0]!.startsWith('contacts') && contactsMove.moving()) {
        waiting.current = [];
        run(command, live[0]!, 1);
        continue;
      }
      // Quitting never waits; a key behind one that waits waits too; moves add to the one under way.
      const mustWait =
        command !== 'quit' &&
        (waiting.current.length > 0 || (live[0]!.startsWith('contacts') && !(command && CONTACT_MOVES.has(command)) && contactsMove.moving()));
      if (mustWait) {
        if (waiting.current.length === 0) contactsMove.afterMove(pressWaiting);
        waiting.current.push({ key, count: count - done });
        return;
      }
      if (command && COUNTED.has(command)) return run(command, live[0]!, count - done);
      if (command) run(command, live[0]!, 1);
      else if (isTextScope(live[0]!)) typeInto(live[0]!, key);
    }
  };

  const latestPress = useRef(press);
  latestPress.current = press;
  const latestPaste = useRef(paste);
  latestPaste.current = paste;

  /** A command from the mouse, run as its key would be run now, and only if a key could run it; whether it ran. */
  const pointerStep = ({ command, count }: MouseStep): boolean => {
    if (quitting.current) return false;
    const live = liveScopes();
    if (!canRun(live, command)) return false;
    // The list is on its way to another page: the row clicked is no longer the one there.
    if (live[0]!.startsWith('contacts') && contactsMove.moving()) return false;
    run(command, live[0]!, count);
    return true;
  };

  /**
   * What clicks changed of the areas as drawn, until they are drawn again (a new area object): a
   * double-click whose second press is read before the frame of the first moves from where the
   * first left the highlight, and does not focus the pane a second time.
   */
  const clicked = useRef(new WeakMap<MouseArea, { focused?: boolean; cursor?: number }>());
  const asClicked = (hit: Hit): Hit => {
    const changed = clicked.current.get(hit.area);
    return changed ? { ...hit, area: { ...hit.area, ...changed } as MouseArea } : hit;
  };

  const lastClick = useRef<ClickRun | undefined>(undefined);
  const click = (event: Extract<InputEvent, { kind: 'mouse' }>): void => {
    // Reports already on their way when O turned the mouse off.
    if (!mouse.on.current) return;
    const { report, count, at } = event;
    const drawn = mouse.areas.at(report.column, report.row);
    const hits = drawn.map(asClicked);
    let clicks = 1;
    if (report.action === 'press' && report.button === 'left') {
      lastClick.current = nextClick(lastClick.current, { column: report.column, row: report.row, at });
      clicks = lastClick.current.count;
    }
    const steps = mouseSteps(report, hits, clicks, count);
    let refused = false;
    for (const step of steps) if (!pointerStep(step)) refused = true;
    // Only what was done is kept: a click refused (a modal open) changed nothing, and is not the
    // first of a double-click.
    if (refused) {
      if (clicks === 1) lastClick.current = undefined;
      return;
    }
    const focused = steps.some((step) => step.command === 'focus-next');
    const pressed = report.action === 'press' && report.button === 'left';
    for (const hit of drawn) {
      const changed = clicked.current.get(hit.area) ?? {};
      const row = rowClicked(hit);
      if (hit.area.kind === 'pane' && focused) clicked.current.set(hit.area, { ...changed, focused: true });
      else if (pressed && row !== undefined) clicked.current.set(hit.area, { ...changed, cursor: row });
    }
  };

  /**
   * The keys of one read, in order. Where a field is open, the characters typed in a row that no
   * binding takes go in as one text (a letter and its marks, an emoji and its skin tone, are one
   * character only together); elsewhere a run of one key is pressed as one, with its count.
   */
  const pressAll = (keys: readonly KeyPress[]): void => {
    let at = 0;
    while (at < keys.length) {
      const scope = liveScopes()[0]!;
      const typing = (key: KeyPress | undefined) =>
        key?.text !== undefined && resolveKey([scope], key.name) === undefined;
      if (isTextScope(scope) && waiting.current.length === 0 && !quitting.current && typing(keys[at])) {
        let end = at;
        while (typing(keys[end])) end++;
        if (!(scope.startsWith('contacts') && contactsMove.moving())) {
          field(scope)?.input({ kind: 'type', text: keys.slice(at, end).map((key) => key.text).join('') });
          at = end;
          continue;
        }
      }
      const { key, count } = runAt(keys, at);
      press(key, count);
      at += count;
    }
  };

  useInputHandler((events) => {
    let keys: KeyPress[] = [];
    for (const event of events) {
      if (event.kind === 'key') {
        keys.push(event.key);
        continue;
      }
      pressAll(keys);
      keys = [];
      if (event.kind === 'paste') paste(event.text);
      else click(event);
    }
    pressAll(keys);
  });
}
