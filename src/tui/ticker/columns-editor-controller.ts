// The columns editor's controller: which of the list's columns are shown and in what order. Every
// change is the list's at once (and saved with it); the editor only keeps which row is
// highlighted. A class outside React (read through useSyncExternalStore, use-columns-editor.ts):
// every command reads the highlight and the columns as the commands before it left them.
import { COLUMN_NAMES, type ColumnName, moveColumn, toggleColumn } from '../../market/watchlists.js';
import { externalValue } from '../state/external-state.js';
import type { StatusBoard } from '../state/status.js';

/** The editor's rows: the columns shown, in order, then those hidden, in their usual order. */
export const editorRows = (columns: readonly ColumnName[]): ColumnName[] => [...columns, ...COLUMN_NAMES.filter((c) => !columns.includes(c))];

export interface ColumnsOwner {
  columns: () => ColumnName[];
  change: (columns: ColumnName[]) => void;
}

export class ColumnsEditorController {
  /** The highlighted row; undefined while the editor is closed. */
  readonly #cursor = externalValue<number | undefined>(undefined);
  readonly #status: StatusBoard;
  /** Whose columns these are: set again by the owner whenever it may have changed. */
  owner: ColumnsOwner;

  constructor(owner: ColumnsOwner, status: StatusBoard) {
    this.owner = owner;
    this.#status = status;
  }

  readonly getState = (): number | undefined => this.#cursor.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#cursor.subscribe(listener);
  readonly #set = (next: number | undefined): void => this.#cursor.dispatch(next);

  #highlighted(): ColumnName | undefined {
    const cursor = this.getState();
    return cursor === undefined ? undefined : editorRows(this.owner.columns())[cursor];
  }

  readonly isOpen = (): boolean => this.getState() !== undefined;
  readonly open = (): void => this.#set(0);
  readonly close = (): void => this.#set(undefined);

  readonly move = (by: number): void => {
    const cursor = this.getState();
    if (cursor !== undefined) this.#set(Math.max(0, Math.min(COLUMN_NAMES.length - 1, cursor + by)));
  };

  readonly toggle = (): void => {
    const column = this.#highlighted();
    if (column === undefined) return;
    const next = toggleColumn(this.owner.columns(), column);
    if (typeof next === 'string') return this.#status.notice(next);
    this.owner.change(next);
    // The highlight stays on the column, wherever showing or hiding it put it.
    this.#set(editorRows(next).indexOf(column));
  };

  /** The highlighted column `by` places on (left, right) among those shown. */
  readonly shift = (by: number): void => {
    const column = this.#highlighted();
    const columns = this.owner.columns();
    if (column === undefined) return;
    if (!columns.includes(column)) return this.#status.notice(`${column} is hidden: Space shows it`);
    const next = moveColumn(columns, column, by);
    this.owner.change(next);
    this.#set(next.indexOf(column));
  };
}
