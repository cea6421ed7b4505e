// A one-line text field: focus is always said out loud, pasted control characters never reach
// the value or the screen, Ctrl and Alt chords never type their letter (they are the keymap's
// field keys, which the field applies at its cursor), and what it shows is exactly what it holds.
import { Text, useInput } from 'ink';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { drawn, typedText } from '../../text/sanitize.js';
import { truncate } from '../../text/width.js';
import { inverse } from '../style/attributes.js';
import { characters, fieldWindow } from '../state/field-window.js';
import { keyNames } from '../keys/key-name.js';
import { FIELD_EDITS, resolveKey } from '../keys/keymap.js';
import { applyLineEdit, codePointCount, fitting } from '../state/line-edit.js';
import { useTheme } from '../style/theme.js';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
  /** The columns the field may take: a longer value scrolls sideways within them. */
  width: number;
  /**
   * The most characters the value may hold (the server's limit): typing past it types nothing,
   * a paste keeps what fits, and a count shows from COUNT_FROM of it.
   */
  maxLength?: number | undefined;
}

/** The share of maxLength from which the field shows how much of it is used. */
const COUNT_FROM = 0.75;

/**
 * Whether a focused text field is taking keys yet. Its input handler is subscribed in an effect,
 * a moment after the field is drawn; keys that arrive before that (typed straight after the key
 * that opened the field) are fed to the field by the key router instead of being lost.
 */
export const FieldListening = createContext<{ current: boolean }>({ current: false });

/** Applies a chunk of typed keys (typed faster than they were read) to a value, as editing would. */
export function applyTyped(value: string, chunk: string): string {
  let next = value;
  // Text between the editing keys goes in whole, so a character made of several (an emoji ZWJ
  // sequence, a letter and its mark) keeps all of them.
  let text = '';
  const flush = () => {
    next += typedText(text);
    text = '';
  };
  for (const char of chunk) {
    if (char === '\r' || char === '\n') break; // Enter: the router submits.
    if (char === '\u0015' || char === '\u0017' || char === '\u007f' || char === '\b') {
      flush();
      // Typed ahead, the cursor is at the end: Ctrl-U and Ctrl-W act there as the field's own keys do.
      if (char === '\u0015') next = applyLineEdit(next, characters(next).length, 'kill-start').value;
      else if (char === '\u0017') next = applyLineEdit(next, characters(next).length, 'delete-word-back').value;
      else next = characters(next).slice(0, -1).join('');
    } else text += char;
  }
  // Other control characters, escapes and bidi overrides never reach a value.
  flush();
  return next;
}

/**
 * Sees each key before the editor does (its effect runs first, as an earlier sibling), so the
 * letter the editor would insert for a Ctrl or Alt chord is dropped. Keys that arrive
 * together with control keys among them are applied here one by one.
 */
function ChordGuard(props: {
  focus: boolean;
  value: string;
  onChange: (v: string) => void;
  swallow: { current: boolean };
  redraw: () => void;
}) {
  // After an edit made here, the field is drawn afresh, with its cursor at the end of the new
  // value.
  const edit = (next: string): void => {
    props.onChange(next);
    props.redraw();
  };
  const listening = useContext(FieldListening);
  useInput(
    (input, key) => {
      // Every listener of this key runs before the microtask: the flag never outlives the key.
      queueMicrotask(() => {
        props.swallow.current = false;
      });
      if (input.length > 1 && /[\u0000-\u001f\u007f]/.test(input) && !input.startsWith('\u001b')) {
        props.swallow.current = true;
        edit(applyTyped(props.value, input));
        return;
      }
      if (!(key.ctrl || key.meta) || key.escape || key.return || key.tab) return;
      if (key.ctrl && input === 'c') return;
      props.swallow.current = true;
    },
    { isActive: props.focus },
  );
  // After useInput's own effect: once this runs, the field's handlers are subscribed.
  useEffect(() => {
    if (!props.focus) return undefined;
    listening.current = true;
    return () => {
      listening.current = false;
    };
  }, [props.focus, listening]);
  return null;
}

/**
 * The field itself: the value on one line, scrolled sideways to keep the cursor in view, each
 * character shown as it will be saved. The cursor steps over whole characters (an emoji, a
 * letter with its accents): arrows, Home/End, Ctrl-A/E/B/F and Alt-B/F move it, Backspace
 * deletes before it, Delete (Ctrl-D) at it, Ctrl-K to the end, anything else is inserted at it.
 */
function Editor(props: {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder: string | undefined;
  width: number;
  swallow: { current: boolean };
  maxLength: number | undefined;
}) {
  const theme = useTheme();
  const chars = characters(props.value);
  // A new editor (drawn afresh) starts with its cursor at the end of the value.
  const [cursor, setCursor] = useState(chars.length);
  const start = useRef(0);
  const at = Math.min(cursor, chars.length);
  useInput(
    (input, key) => {
      // Moving and deleting at the cursor, by the keymap's field keys (Ctrl and Alt chords among
      // them, which the chord guard keeps from typing their letter).
      const names = keyNames(input, key);
      const command = names.length === 1 ? resolveKey(['field'], names[0]) : undefined;
      const edit = command && FIELD_EDITS[command];
      if (edit) {
        const next = applyLineEdit(props.value, at, edit);
        setCursor(next.cursor);
        if (next.value !== props.value) props.onChange(next.value);
        return;
      }
      if (props.swallow.current) return;
      if (key.upArrow || key.downArrow || (key.ctrl && input === 'c') || key.tab || key.return) return;
      const before = chars.slice(0, at).join('');
      const after = chars.slice(at).join('');
      if (key.backspace || key.delete) {
        if (at === 0) return;
        setCursor(at - 1);
        props.onChange(chars.slice(0, at - 1).join('') + after);
        return;
      }
      // Only what was typed is cleaned (no controls, nothing that draws as nothing): the rest of
      // the value is kept exactly as it is, since it is what will be saved.
      const typed = characters(typedText(input));
      // Past the limit a key types nothing and a paste keeps the whole characters that fit.
      const fits = props.maxLength === undefined ? typed : fitting(typed, props.maxLength - codePointCount(props.value));
      if (fits.length === 0) return;
      setCursor(at + fits.length);
      props.onChange(before + fits.join('') + after);
    },
    { isActive: props.focus },
  );
  if (props.value === '' && props.placeholder && !props.focus) {
    return <Text {...(theme.muted && { color: theme.muted })}>{truncate(props.placeholder, props.width)}</Text>;
  }
  if (!props.focus) return <Text wrap="truncate-end">{truncate(drawn(props.value), props.width)}</Text>;
  if (props.value === '' && props.placeholder) {
    const [first = ' ', ...rest] = characters(truncate(props.placeholder, props.width));
    return (
      <Text wrap="truncate-end">
        {inverse(first)}
        <Text {...(theme.muted && { color: theme.muted })}>{rest.join('')}</Text>
      </Text>
    );
  }
  // Each character drawn as the terminal can draw it (an emoji ZWJ sequence as its emoji side by
  // side), one for one, so the cursor stays on the character the next key lands after.
  const shown = fieldWindow(
    chars.map((char) => drawn(char) || ' '),
    at,
    props.width,
    start.current,
  );
  start.current = shown.start;
  return (
    <Text wrap="truncate-end">
      {shown.before}
      {inverse(shown.atCursor)}
      {shown.after}
    </Text>
  );
}

export function TextField({ value, onChange, focus, placeholder, width, maxLength }: TextFieldProps) {
  const theme = useTheme();
  const swallow = useRef(false);
  // Bumped to draw the editor afresh: a new one puts its cursor at the end of the value.
  const [generation, setGeneration] = useState(0);
  const used = maxLength === undefined ? 0 : codePointCount(value);
  // Shown while editing, once the value nears the limit, where there is room for it beside a field.
  const count =
    focus && maxLength !== undefined && used >= maxLength * COUNT_FROM && width >= 2 * `${maxLength}/${maxLength}`.length + 2
      ? `${used}/${maxLength}`
      : undefined;
  const full = maxLength !== undefined && used >= maxLength;
  const redraw = () => setGeneration((g) => g + 1);
  return (
    <>
      <ChordGuard focus={focus} value={value} onChange={onChange} swallow={swallow} redraw={redraw} />
      <Editor
        key={generation}
        value={value}
        onChange={onChange}
        focus={focus}
        placeholder={placeholder}
        width={Math.max(1, width - (count ? count.length + 1 : 0))}
        swallow={swallow}
        maxLength={maxLength}
      />
      {count && (
        <Text {...(full ? theme.warning && { color: theme.warning } : theme.muted && { color: theme.muted })} bold={full}>
          {` ${count}`}
        </Text>
      )}
    </>
  );
}
