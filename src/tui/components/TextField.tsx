// ink-text-input, wrapped: focus is always said out loud (it defaults to true), pasted control
// characters never reach the value or the screen, the line-editing keys people expect work
// (Ctrl-U clears, Ctrl-W deletes a word) instead of typing their letter, and keys that arrive
// in separate reads before the field is drawn again all count.
import { useInput } from 'ink';
import TextInput from 'ink-text-input';
import { createContext, useContext, useEffect, useRef, useState, type RefObject } from 'react';
import { sanitize } from '../../text/sanitize.js';
import { isSequenceTail } from '../keys/key-name.js';
import { applyTyped, cursorAfterEdit, editLine, type Line, type LineKey } from './line-edit.js';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
}

/**
 * Whether a focused text field is taking keys yet. Its input handler is subscribed in an effect,
 * a moment after the field is drawn; keys that arrive before that (typed straight after the key
 * that opened the field) are fed to the field by the key router instead of being lost.
 */
export const FieldListening = createContext<{ current: boolean }>({ current: false });

/** What the field knows between renders; refs, because several keys may come before one. */
interface Editing {
  /** The line with every edit so far, drawn or not. */
  line: RefObject<Line>;
  /** The value ink-text-input's key handler was drawn with: the one it edits. */
  drawn: RefObject<string>;
  /** Drops ink-text-input's change for a key this wrapper has dealt with. */
  swallow: RefObject<boolean>;
  emit: (line: Line) => void;
  /** ink-text-input's own cursor went stale in a burst: draw it afresh (at the end). */
  redraw: () => void;
}

/** The line edit a key makes, when this wrapper makes it; undefined for keys it leaves alone. */
function lineKey(input: string, key: { leftArrow: boolean; rightArrow: boolean; backspace: boolean; delete: boolean }): LineKey | undefined {
  if (key.leftArrow) return { kind: 'left' };
  if (key.rightArrow) return { kind: 'right' };
  if (key.backspace || key.delete) return { kind: 'backspace' };
  const text = sanitize(input);
  return text === '' ? undefined : { kind: 'insert', text };
}

/**
 * Sees each key before ink-text-input does (its effect runs first, as an earlier sibling), so a
 * Ctrl or Alt chord can be acted on and the letter ink-text-input would insert for it dropped.
 * Keys that arrive together with control keys among them are applied here one by one, and so is
 * every key that arrives before the field was drawn with the last edit: ink-text-input would
 * apply it to the value it was drawn with and lose the keys in between.
 */
function ChordGuard({ focus, editing }: { focus: boolean; editing: Editing }) {
  const listening = useContext(FieldListening);
  useInput(
    (input, key) => {
      const { line, drawn, swallow, emit, redraw } = editing;
      // Every listener of this key runs before the microtask: the flag never outlives the key.
      queueMicrotask(() => {
        swallow.current = false;
      });
      const behind = line.current.value !== drawn.current;
      // eslint-disable-next-line no-control-regex
      if (input.length > 1 && /[\u0000-\u001f\u007f]/.test(input) && !input.startsWith('\u001b')) {
        swallow.current = true;
        emit(applyTyped(line.current, input));
        if (behind) redraw();
        return;
      }
      if (isSequenceTail(input)) {
        // An unknown key's sequence, not text to insert.
        swallow.current = true;
        return;
      }
      if (key.escape || key.return || key.tab || key.upArrow || key.downArrow) return;
      if (key.ctrl && input === 'c') return;
      if (key.ctrl || key.meta) {
        swallow.current = true;
        if (key.ctrl && input === 'u') emit(editLine(line.current, { kind: 'clear' }));
        else if (key.ctrl && input === 'w') emit(editLine(line.current, { kind: 'delete-word' }));
        if (behind) redraw();
        return;
      }
      if (!behind) return;
      const edit = lineKey(input, key);
      swallow.current = true;
      if (edit) emit(editLine(line.current, edit));
      redraw();
    },
    { isActive: focus },
  );
  // After useInput's own effect: once this runs, the field's handlers are subscribed.
  useEffect(() => {
    if (!focus) return undefined;
    listening.current = true;
    return () => {
      listening.current = false;
    };
  }, [focus, listening]);
  return null;
}

export function TextField({ value, onChange, focus, placeholder }: TextFieldProps) {
  const line = useRef<Line>({ value, cursor: value.length });
  const drawn = useRef(value);
  const swallow = useRef(false);
  // Bumped to draw ink-text-input afresh, which puts its cursor at the end of the value.
  const [generation, setGeneration] = useState(0);
  const drawnGeneration = useRef(generation);
  // A value set from outside (a form reset, a cleared filter) is the line now; and a fresh
  // ink-text-input has its cursor at the end, so the line's is put there too.
  if (value !== line.current.value || generation !== drawnGeneration.current) {
    line.current = { value, cursor: value.length };
    drawnGeneration.current = generation;
  }
  // Effects run children first: by now ink-text-input's handler holds `value`.
  useEffect(() => {
    drawn.current = value;
  });
  const editing: Editing = {
    line,
    drawn,
    swallow,
    emit: (next) => {
      line.current = next;
      onChange(next.value);
    },
    redraw: () => setGeneration((g) => g + 1),
  };
  return (
    <>
      <ChordGuard focus={focus} editing={editing} />
      <TextInput
        key={generation}
        value={value}
        onChange={(next) => {
          if (swallow.current) {
            swallow.current = false;
            return;
          }
          const clean = sanitize(next);
          editing.emit({ value: clean, cursor: cursorAfterEdit(drawn.current, clean) });
        }}
        focus={focus}
        showCursor={focus}
        {...(placeholder !== undefined && { placeholder })}
      />
    </>
  );
}
