// The columns editor: which of the list's columns are shown and in what order. Every change is
// the list's at once (and saved with it); the editor only keeps which row is highlighted.
import { useCallback, useMemo, useRef, useState } from 'react';
import { COLUMN_NAMES, type ColumnName, moveColumn, toggleColumn } from '../../market/watchlists.js';
import type { StatusBoard } from '../state/status.js';

/** The editor's rows: the columns shown, in order, then those hidden, in their usual order. */
export const editorRows = (columns: readonly ColumnName[]): ColumnName[] => [...columns, ...COLUMN_NAMES.filter((c) => !columns.includes(c))];

export interface ColumnsOwner {
  columns: () => ColumnName[];
  change: (columns: ColumnName[]) => void;
}

export function useColumnsEditor(owner: ColumnsOwner, status: StatusBoard) {
  const [cursor, setCursor] = useState<number | undefined>(undefined);
  const ref = useRef(cursor);
  const set = useCallback((next: number | undefined) => {
    ref.current = next;
    setCursor(next);
  }, []);
  const commands = useMemo(() => {
    const highlighted = () => (ref.current === undefined ? undefined : editorRows(owner.columns())[ref.current]);
    return {
      isOpen: () => ref.current !== undefined,
      open: () => set(0),
      close: () => set(undefined),
      move: (by: number) => ref.current !== undefined && set(Math.max(0, Math.min(COLUMN_NAMES.length - 1, ref.current + by))),
      toggle: () => {
        const column = highlighted();
        if (column === undefined) return;
        const next = toggleColumn(owner.columns(), column);
        if (typeof next === 'string') return status.notice(next);
        owner.change(next);
        // The highlight stays on the column, wherever showing or hiding it put it.
        set(editorRows(next).indexOf(column));
      },
      /** The highlighted column `by` places on (left, right) among those shown. */
      shift: (by: number) => {
        const column = highlighted();
        const columns = owner.columns();
        if (column === undefined) return;
        if (!columns.includes(column)) return status.notice(`${column} is hidden: Space shows it`);
        const next = moveColumn(columns, column, by);
        owner.change(next);
        set(next.indexOf(column));
      },
    };
  }, [owner, set, status]);
  return { cursor, ...commands };
}
