// The watchlists' commands: the menu (switch, create, rename, delete), moving a symbol to another
// list, stepping through the lists, and 1-9 for the list of that number.
import type { OpenFields } from '../components/field-commands.js';
import { commandsOf, eachOf } from '../keys/commands.js';
import type { Command, Scope } from '../keys/keymap.js';
import type { ListsController, ListsMenu } from './lists-controller.js';

const LIST_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const LIST_KEYS = LIST_NUMBERS.map((n) => `ticker.list-${n}` as const satisfies Command);

export interface ListsCommandsDeps {
  lists: ListsController;
  /** The symbol highlighted in the ticker, for moving it to another list. */
  selectedSymbol: () => string | undefined;
}

export function listsCommands({ lists, selectedSymbol }: ListsCommandsDeps) {
  return {
    ...commandsOf({
      'ticker.lists': () => lists.openSwitch(),
      'ticker.move-to-list': () => lists.openMove(selectedSymbol()),
      'ticker.next-list': () => lists.step(1),
      'ticker.previous-list': () => lists.step(-1),
      'lists.down': (_, count) => lists.move(count),
      'lists.up': (_, count) => lists.move(-count),
      'lists.choose': () => lists.choose(),
      'lists.create': () => lists.startCreate(),
      'lists.rename': () => lists.startRename(),
      'lists.delete': () => lists.askDelete(),
      'lists.close': () => lists.close(),
      'lists.confirm-yes': () => lists.confirmDelete(),
      'lists.confirm-no': () => lists.keep(),
    }),
    ...eachOf(LIST_KEYS, (command) => lists.switchTo(LIST_KEYS.indexOf(command))),
  };
}

/** A list's name being typed. */
export function listsFields(lists: ListsController): OpenFields {
  return {
    'ticker.list-name': {
      input: (input) => lists.editName(input),
      submit: () => lists.submitName(),
      cancel: () => lists.cancelName(),
    },
  };
}

/** The scope of the watchlists menu as it stands: a name being typed, a delete asked, or the list. */
export const listsScopeOf = (menu: ListsMenu): Scope | undefined =>
  !menu.open ? undefined : menu.name ? 'ticker.list-name' : menu.confirmDelete ? 'ticker.list-confirm' : 'ticker.lists';
