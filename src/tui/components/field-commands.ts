// The commands of whatever text field is open, whichever feature owns it: Enter, Esc, Tab and
// Shift-Tab, and the line edits (FIELD_EDITS) for the moment after a field opens and before its
// TextField takes keys itself.
import { eachOf, commandsOf } from '../keys/commands.js';
import { FIELD_EDIT_COMMANDS, FIELD_EDITS, type Scope } from '../keys/keymap.js';
import { characters } from '../state/field-window.js';
import { applyLineEdit } from '../state/line-edit.js';
import { applyTyped } from './TextField.js';

/** An open field, as its owner changes it. */
export interface OpenField {
  /** Its value changed by `change`. */
  edit(change: (value: string) => string): void;
  submit?(): void;
  cancel?(): void;
  /** To the next (1) or previous (-1) field of a form of several. */
  move?(by: number): void;
}

/** The open fields, by the scope their keys are resolved in. */
export type OpenFields = Partial<Record<Scope, OpenField>>;

/** What the keys a just-opened field is not taking yet make of it, as the field would have. */
export const typeInto = (field: OpenField | undefined, keys: string): void => field?.edit((value) => applyTyped(value, keys));

/**
 * `listening`: the field's TextField takes keys itself (FieldListening); until it does, the line
 * edits are made here, with the cursor at the end, where a field just opened has it.
 */
export function fieldCommands(fields: OpenFields, listening: () => boolean) {
  return {
    ...commandsOf({
      'field.submit': (scope) => fields[scope]?.submit?.(),
      'field.cancel': (scope) => fields[scope]?.cancel?.(),
      'field.next': (scope) => fields[scope]?.move?.(1),
      'field.previous': (scope) => fields[scope]?.move?.(-1),
    }),
    ...eachOf(FIELD_EDIT_COMMANDS, (command, scope) => {
      if (listening()) return;
      const edit = FIELD_EDITS[command]!;
      fields[scope]?.edit((value) => applyLineEdit(value, characters(value).length, edit).value);
    }),
  };
}
