// The watchlists menu: choose the list shown (or where the highlighted symbol goes), make one,
// rename one, delete one. Its state lives here; every change to the lists goes through the
// pure rules (market/watchlists.ts) and reaches the ticker as one 'lists-changed'.
import { useCallback, useMemo, useRef, useState } from 'react';
import { createList, LIST_NAME_MAX, moveSymbolToList, renameList, removeList, type Watchlists } from '../../market/watchlists.js';
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

export interface ListsOwner {
  /** The lists as the ticker has them now (after the keys before this one). */
  lists: () => Watchlists;
  change: (lists: Watchlists) => void;
}

export function useListsMenu(owner: ListsOwner, status: StatusBoard) {
  const [menu, setMenu] = useState<ListsMenu>({ open: false });
  const ref = useRef(menu);
  const set = useCallback((next: ListsMenu) => {
    ref.current = next;
    setMenu(next);
  }, []);
  const commands = useMemo(() => {
    const count = () => owner.lists().lists.length;
    /** The menu, its cursor on a list there is: another window may have deleted some since it was put there. */
    const open = () => {
      const m = ref.current;
      if (!m.open) return undefined;
      return m.cursor < count() ? m : { ...m, cursor: count() - 1 };
    };
    /** Applies a change the rules allow, or says why not. */
    const apply = (result: Watchlists | string): boolean => {
      if (typeof result === 'string') {
        status.notice(result);
        return false;
      }
      owner.change(result);
      return true;
    };
    return {
      current: () => ref.current,
      openSwitch: () => set({ open: true, purpose: { kind: 'switch' }, cursor: owner.lists().active }),
      openMove: (symbol: string | undefined) => {
        if (symbol === undefined) return;
        if (count() < 2) {
          status.notice('there is no other list to move it to: press w, then c to make one');
          return;
        }
        set({ open: true, purpose: { kind: 'move', symbol }, cursor: owner.lists().active });
      },
      close: () => set({ open: false }),
      move: (by: number) => {
        const m = open();
        if (m) set({ ...m, cursor: Math.max(0, Math.min(count() - 1, m.cursor + by)) });
      },
      choose: () => {
        const m = open();
        if (!m) return;
        const lists = owner.lists();
        const target = lists.lists[m.cursor]!;
        if (m.purpose.kind === 'switch') {
          if (m.cursor !== lists.active) apply({ ...lists, active: m.cursor });
          set({ open: false });
          return;
        }
        if (m.cursor === lists.active) {
          status.notice(`${m.purpose.symbol} is on ${target.name} already: choose another list`);
          return;
        }
        const had = target.symbols.includes(m.purpose.symbol);
        apply(moveSymbolToList(lists, m.purpose.symbol, m.cursor));
        status.notice(had ? `${m.purpose.symbol} was on ${target.name} already: taken off this list` : `moved ${m.purpose.symbol} to ${target.name}`);
        set({ open: false });
      },
      /** To list `index` (0-based) at once, as the number keys do. */
      switchTo: (index: number) => {
        const lists = owner.lists();
        if (index >= lists.lists.length) {
          status.notice(`there are ${lists.lists.length} list${lists.lists.length === 1 ? '' : 's'}: press w to make more`);
          return;
        }
        if (index !== lists.active) apply({ ...lists, active: index });
      },
      /** The list `by` places on, round the end. */
      step: (by: number) => {
        const lists = owner.lists();
        const n = lists.lists.length;
        if (n > 1) apply({ ...lists, active: (((lists.active + by) % n) + n) % n });
      },
      startCreate: () => {
        const m = open();
        if (m) set({ ...m, name: { kind: 'create', draft: EMPTY_FIELD } });
      },
      startRename: () => {
        const m = open();
        if (m) set({ ...m, name: { kind: 'rename', draft: fieldAtEnd(owner.lists().lists[m.cursor]!.name) } });
      },
      editName: (input: FieldInput) => {
        const m = open();
        if (!m?.name) return;
        const draft = fieldInput(m.name.draft, input, LIST_NAME_MAX);
        // A problem said of the name goes once the name changes, not when the cursor moves.
        if (draft !== m.name.draft) set({ ...m, name: { ...m.name, draft, problem: draft.value === m.name.draft.value ? m.name.problem : undefined } });
      },
      submitName: () => {
        const m = open();
        if (!m?.name) return;
        const lists = owner.lists();
        const result = m.name.kind === 'create' ? createList(lists, m.name.draft.value) : renameList(lists, m.cursor, m.name.draft.value);
        // Said under the field, which keeps what was typed.
        if (typeof result === 'string') {
          set({ ...m, name: { ...m.name, problem: result } });
          return;
        }
        owner.change(m.name.kind === 'create' ? result : { ...result, active: lists.active });
        status.notice(m.name.kind === 'create' ? `made the list ${m.name.draft.value.trim()}` : `renamed to ${m.name.draft.value.trim()}`);
        set(m.name.kind === 'create' ? { open: false } : { ...m, name: undefined });
      },
      cancelName: () => {
        const m = open();
        if (m) set({ ...m, name: undefined });
      },
      askDelete: () => {
        const m = open();
        if (!m) return;
        if (count() < 2) {
          status.notice('the last list cannot be deleted; empty it instead');
          return;
        }
        set({ ...m, confirmDelete: true });
      },
      confirmDelete: () => {
        const m = open();
        if (!m?.confirmDelete) return;
        const lists = owner.lists();
        const name = lists.lists[m.cursor]!.name;
        if (apply(removeList(lists, m.cursor))) status.notice(`deleted the list ${name}`);
        set({ ...m, confirmDelete: false, cursor: Math.min(m.cursor, count() - 1) });
      },
      keep: () => {
        const m = open();
        if (m) set({ ...m, confirmDelete: false });
      },
    };
  }, [owner, set, status]);
  return { menu, ...commands };
}
