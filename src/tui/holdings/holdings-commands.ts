// The holdings editor's commands: a symbol's lots opened from the ticker, moved through, added,
// edited and deleted.
import type { OpenFields } from '../components/field-commands.js';
import type { Scope } from '../keys/keymap.js';
import { commandsOf } from '../keys/commands.js';
import type { HoldingsCommands } from './holdings-controller.js';
import type { HoldingsEditor } from './holdings-state.js';

export interface HoldingsCommandsDeps {
  holdings: HoldingsCommands;
  selectedSymbol: () => string | undefined;
}

export function holdingsCommands({ holdings, selectedSymbol }: HoldingsCommandsDeps) {
  return commandsOf({
    'holdings.open': () => holdings.open(selectedSymbol()),
    'holdings.close': () => holdings.close(),
    'holdings.down': (_, count) => holdings.move(count),
    'holdings.up': (_, count) => holdings.move(-count),
    'holdings.add': () => holdings.add(),
    'holdings.edit': () => holdings.edit(),
    'holdings.delete': () => holdings.askDelete(),
    'holdings.confirm-yes': () => holdings.confirmDelete(),
    'holdings.confirm-no': () => holdings.keep(),
  });
}

/** A lot's form. */
export function holdingsFields(holdings: HoldingsCommands): OpenFields {
  return {
    'holdings.form': {
      input: (input) => holdings.editField(input),
      submit: () => holdings.submit(),
      cancel: () => holdings.cancelForm(),
      move: (by) => holdings.moveField(by),
    },
  };
}

/** The holdings editor's scope as it stands: a lot's form, a delete asked, or the lots. */
export const holdingsScopeOf = (editor: HoldingsEditor): Scope | undefined =>
  !editor.open ? undefined : editor.form ? 'holdings.form' : editor.confirmDelete ? 'holdings.confirm' : 'holdings';
