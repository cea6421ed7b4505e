// A one-line text field as the state that owns it holds it: its value and where the cursor is,
// and every edit a key or a paste makes as a pure function of the two. The field on screen only
// draws this; the reducer of the form it is in keeps it.
import { typedText } from '../../text/sanitize.js';
import { characters } from './field-window.js';
import { applyLineEdit, codePointCount, fitting, type LineEdit } from './line-edit.js';

export interface FieldText {
  readonly value: string;
  /** Where the next character goes, in whole characters (0 to the value's length). */
  readonly cursor: number;
}

/** What a key or a paste does to a field. */
export type FieldInput =
  /** Text typed or pasted, inserted at the cursor (cleaned, and cut to the field's limit). */
  | { kind: 'type'; text: string }
  /** Backspace: the character before the cursor. */
  | { kind: 'backspace' }
  /** Moving and deleting at the cursor (the keymap's field keys). */
  | { kind: 'edit'; edit: LineEdit };

/** A field holding `value`, its cursor at the end: how a field opens, and a value set whole. */
export const fieldAtEnd = (value: string): FieldText => ({ value, cursor: characters(value).length });

/** The empty field. */
export const EMPTY_FIELD: FieldText = { value: '', cursor: 0 };

/**
 * The field after `input`; `maxLength` is the most characters it holds (the server's limit, in
 * code points): typing past it types nothing, a paste keeps the whole characters that fit. The
 * same object back when nothing changed.
 */
export function fieldInput(field: FieldText, input: FieldInput, maxLength?: number): FieldText {
  const chars = characters(field.value);
  const at = Math.max(0, Math.min(field.cursor, chars.length));
  switch (input.kind) {
    case 'edit': {
      const next = applyLineEdit(field.value, at, input.edit);
      return next.value === field.value && next.cursor === field.cursor ? field : next;
    }
    case 'backspace':
      if (at === 0) return field;
      return { value: [...chars.slice(0, at - 1), ...chars.slice(at)].join(''), cursor: at - 1 };
    case 'type': {
      // Only what was typed is cleaned (no controls, nothing that draws as nothing): the rest of
      // the value is kept exactly as it is, since it is what will be saved.
      const typed = characters(typedAfter(chars[at - 1], input.text));
      const fits = maxLength === undefined ? typed : fitting(typed, maxLength - codePointCount(field.value));
      if (fits.length === 0) return field;
      const before = chars.slice(0, at).join('') + fits.join('');
      // Counted again: a mark typed after a letter joins it, and the cursor stays after the two.
      return { value: before + chars.slice(at).join(''), cursor: characters(before).length };
    }
  }
}

/**
 * `text` cleaned as typed after `before`, the character before the cursor. Alone, a mark, a ZWJ
 * or a skin tone draws as nothing and typedText drops it; typed after the character it joins (a
 * key of its own, in a read of its own), it is part of that character and kept.
 */
function typedAfter(before: string | undefined, text: string): string {
  if (before === undefined) return typedText(text);
  const joined = typedText(before + text);
  return joined.startsWith(before) ? joined.slice(before.length) : typedText(text);
}
