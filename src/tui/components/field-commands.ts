// The commands of whatever text field is open, whichever feature owns it: Enter, Esc, Tab and
// Shift-Tab, and the line edits (FIELD_EDITS), which the field's owner applies to the value and
// cursor its state holds.
import { eachOf, commandsOf } from '../keys/commands.js';
import { FIELD_EDIT_COMMANDS, FIELD_EDITS, type Scope } from '../keys/keymap.js';
import type { FieldInput } from '../state/field-text.js';

/** An open field, as its owner changes it. */
export interface OpenField {
  /** A key or a paste, applied by the owner's reducer to the field's value and cursor. */
  input(input: FieldInput): void;
  submit?(): void;
  cancel?(): void;
  /** To the next (1) or previous (-1) field of a form of several. */
  move?(by: number): void;
}

/** The open fields, by the scope their keys are resolved in. */
export type OpenFields = Partial<Record<Scope, OpenField>>;

export function fieldCommands(fields: OpenFields) {
  return {
    ...commandsOf({
      'field.submit': (scope) => fields[scope]?.submit?.(),
      'field.cancel': (scope) => fields[scope]?.cancel?.(),
      'field.next': (scope) => fields[scope]?.move?.(1),
      'field.previous': (scope) => fields[scope]?.move?.(-1),
    }),
    ...eachOf(FIELD_EDIT_COMMANDS, (command, scope) => fields[scope]?.input({ kind: 'edit', edit: FIELD_EDITS[command]! })),
  };
}
