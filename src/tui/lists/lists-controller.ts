// The watchlists menu's controller: choose the list shown (or where the highlighted symbol goes),
// make one, rename one, delete one. Every change to the lists goes through the pure rules
// (market/watchlists.ts) and reaches the ticker as one 'lists-changed'. A class outside React: it
// holds the menu (read through useSyncExternalStore, use-lists-menu.ts), and every command reads
// the menu and the lists as the commands before it left them.
import { createList, LIST_NAME_MAX, moveSymbolToList, renameList, removeList, type Watchlists } from '../../market/watchlists.js';
import { externalValue } from '../state/external-state.js';
import { EMPTY_FIELD, fieldAtEnd, fieldInput, type FieldInput, type FieldText } from '../state/field-text.js';
import type { StatusBoard } from '../state/status.js';

export type ListsMenu =
  | { open: false }
  | {
      open: true;
      /** Switch to the list chosen, or move `symbol` there. */
      purpose: { kind: 'switch' } | { kind: 'move'; symbol: string };
      cursor: number;
      /** A name being typed for a new list or the one highlighted, and what is wrong with it. */
      name?: { kind: 'create' | 'rename'; draft: FieldText; problem?: string | undefined } | undefined;
      /** Asking whether to delete the highlighted list. */
      confirmDelete?: boolean;
    };

type OpenMenu = Extract<ListsMenu, { open: true }>;

export interface ListsOwner {
  /** The lists as the ticker has them now (after the keys before this one). */
  lists: () => Watchlists;
  change: (lists: Watchlists) => void;
}

export class ListsController {
  readonly #menu = externalValue<ListsMenu>({ open: false });
  readonly #status: StatusBoard;
  /** Whose lists these are: set again by the owner whenever it may have changed. */
  owner: ListsOwner;

  constructor(owner: ListsOwner, status: StatusBoard) {
    this.owner = owner;
    this.#status = status;
  }

  /** The menu as the commands before this one left it. */
  readonly getState = (): ListsMenu => this.#menu.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#menu.subscribe(listener);
  readonly current = this.getState;
  readonly #set = (next: ListsMenu): void => this.#menu.dispatch(next);

  #count(): number {
    return this.owner.lists().lists.length;
  }

  /** The menu, its cursor on a list there is: another window may have deleted some since it was put there. */
  #open(): OpenMenu | undefined {
    const m = this.getState();
    if (!m.open) return undefined;
    return m.cursor < this.#count() ? m : { ...m, cursor: this.#count() - 1 };
  }

  /** Applies a change the rules allow, or says why not. */
  #apply(result: Watchlists | string): boolean {
    if (typeof result === 'string') {
      this.#status.notice(result);
      return false;
    }
    this.owner.change(result);
    return true;
  }

  readonly openSwitch = (): void => this.#set({ open: true, purpose: { kind: 'switch' }, cursor: this.owner.lists().active });

  readonly openMove = (symbol: string | undefined): void => {
    if (symbol === undefined) return;
    if (this.#count() < 2) {
      this.#status.notice('there is no other list to move it to: press w, then c to make one');
      return;
    }
    this.#set({ open: true, purpose: { kind: 'move', symbol }, cursor: this.owner.lists().active });
  };

  readonly close = (): void => this.#set({ open: false });

  readonly move = (by: number): void => {
    const m = this.#open();
    if (m) this.#set({ ...m, cursor: Math.max(0, Math.min(this.#count() - 1, m.cursor + by)) });
  };

  readonly choose = (): void => {
    const m = this.#open();
    if (!m) return;
    const lists = this.owner.lists();
    const target = lists.lists[m.cursor]!;
    if (m.purpose.kind === 'switch') {
      if (m.cursor !== lists.active) this.#apply({ ...lists, active: m.cursor });
      this.#set({ open: false });
      return;
    }
    if (m.cursor === lists.active) {
      this.#status.notice(`${m.purpose.symbol} is on ${target.name} already: choose another list`);
      return;
    }
    const had = target.symbols.includes(m.purpose.symbol);
    this.#apply(moveSymbolToList(lists, m.purpose.symbol, m.cursor));
    this.#status.notice(had ? `${m.purpose.symbol} was on ${target.name} already: taken off this list` : `moved ${m.purpose.symbol} to ${target.name}`);
    this.#set({ open: false });
  };

  /** To list `index` (0-based) at once, as the number keys do. */
  readonly switchTo = (index: number): void => {
    const lists = this.owner.lists();
    if (index >= lists.lists.length) {
      this.#status.notice(`there are ${lists.lists.length} list${lists.lists.length === 1 ? '' : 's'}: press w to make more`);
      return;
    }
    if (index !== lists.active) this.#apply({ ...lists, active: index });
  };

  /** The list `by` places on, round the end. */
  readonly step = (by: number): void => {
    const lists = this.owner.lists();
    const n = lists.lists.length;
    if (n > 1) this.#apply({ ...lists, active: (((lists.active + by) % n) + n) % n });
  };

  readonly startCreate = (): void => {
    const m = this.#open();
    if (m) this.#set({ ...m, name: { kind: 'create', draft: EMPTY_FIELD } });
  };

  readonly startRename = (): void => {
    const m = this.#open();
    if (m) this.#set({ ...m, name: { kind: 'rename', draft: fieldAtEnd(this.owner.lists().lists[m.cursor]!.name) } });
  };

  readonly editName = (input: FieldInput): void => {
    const m = this.#open();
    if (!m?.name) return;
    const draft = fieldInput(m.name.draft, input, LIST_NAME_MAX);
    // A problem said of the name goes once the name changes, not when the cursor moves.
    if (draft !== m.name.draft) this.#set({ ...m, name: { ...m.name, draft, problem: draft.value === m.name.draft.value ? m.name.problem : undefined } });
  };

  readonly submitName = (): void => {
    const m = this.#open();
    if (!m?.name) return;
    const lists = this.owner.lists();
    const result = m.name.kind === 'create' ? createList(lists, m.name.draft.value) : renameList(lists, m.cursor, m.name.draft.value);
    // Said under the field, which keeps what was typed.
    if (typeof result === 'string') {
      this.#set({ ...m, name: { ...m.name, problem: result } });
      return;
    }
    this.owner.change(m.name.kind === 'create' ? result : { ...result, active: lists.active });
    this.#status.notice(m.name.kind === 'create' ? `made the list ${m.name.draft.value.trim()}` : `renamed to ${m.name.draft.value.trim()}`);
    this.#set(m.name.kind === 'create' ? { open: false } : { ...m, name: undefined });
  };

  readonly cancelName = (): void => {
    const m = this.#open();
    if (m) this.#set({ ...m, name: undefined });
  };

  readonly askDelete = (): void => {
    const m = this.#open();
    if (!m) return;
    if (this.#count() < 2) {
      this.#status.notice('the last list cannot be deleted; empty it instead');
      return;
    }
    this.#set({ ...m, confirmDelete: true });
  };

  readonly confirmDelete = (): void => {
    const m = this.#open();
    if (!m?.confirmDelete) return;
    const lists = this.owner.lists();
    const name = lists.lists[m.cursor]!.name;
    if (this.#apply(removeList(lists, m.cursor))) this.#status.notice(`deleted the list ${name}`);
    this.#set({ ...m, confirmDelete: false, cursor: Math.min(m.cursor, this.#count() - 1) });
  };

  readonly keep = (): void => {
    const m = this.#open();
    if (m) this.#set({ ...m, confirmDelete: false });
  };
}
