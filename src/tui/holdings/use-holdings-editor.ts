// The holdings editor's decisions: a symbol's lots, the form that adds or edits one (checked as it
// is typed: a quantity and a cost above zero, a real date not in the future), and deleting one.
// Each change is on disk when it is said to be; one that cannot be saved says so and keeps the form.
import { useMemo, useState } from 'react';
import { checkLot, type Lot, type LotField, type LotInput } from '../../market/holdings.js';
import { fixedText } from '../../market/money.js';
import type { Books } from '../../store/price-recorder.js';
import { firstProblem, type Form, formEdited, formMoved, formRefused, newForm } from '../state/form.js';
import type { StatusStore } from '../state/status.js';
import { type BooksOwner, readBooks, writeBooks } from '../state/books-write.js';
import { useLatest } from '../state/use-store.js';

export const LOT_FIELDS: readonly LotField[] = ['quantity', 'cost', 'date'];

export interface LotForm extends Form<LotField> {
  /** The lot being edited; undefined for a new one. */
  editing: number | undefined;
}

export type HoldingsEditor =
  | { open: false }
  | { open: true; symbol: string; cursor: number; confirmDelete: boolean; form: LotForm | undefined };

export interface HoldingsOwner extends BooksOwner {
  /** Whether the server said it does not know `symbol`: no lot is kept for what cannot be valued. */
  unknown: (symbol: string) => boolean;
  /** Today, YYYY-MM-DD, on this machine's calendar. */
  today: () => string;
}

const problemsOf = (today: () => string) => (values: LotInput): Partial<Record<LotField, string>> => {
  const checked = checkLot(values, today());
  return 'problems' in checked ? checked.problems : {};
};

export function useHoldingsEditor(owner: HoldingsOwner, status: StatusStore) {
  const [editor, set, current] = useLatest<HoldingsEditor>({ open: false });
  // Bumped by every change, so that what is drawn from the lots is worked out again.
  const [version, setVersion] = useState(0);

  const commands = useMemo(() => {
    const check = problemsOf(owner.today);
    const lots = (symbol: string): Lot[] => readBooks(owner.books(), (b) => b.holdings.list(b.source).filter((lot) => lot.symbol === symbol), []);
    const open = () => {
      const e = current();
      return e.open ? e : undefined;
    };
    const highlighted = (): Lot | undefined => {
      const e = open();
      return e ? lots(e.symbol)[e.cursor] : undefined;
    };
    /** A write to the lots; false, and said, when it cannot be made. */
    const write = (what: string, body: (b: Books) => boolean | void): boolean => {
      const done = writeBooks(owner, status, 'holdings', what, body);
      setVersion((n) => n + 1);
      return done;
    };
    const formFor = (values: LotInput, editing: number | undefined): LotForm => ({ ...newForm(LOT_FIELDS, values, check), editing });

    return {
      isOpen: () => current().open,
      current,
      open: (symbol: string | undefined) => {
        if (symbol === undefined) return status.notice('the watchlist is empty: / adds a symbol to hold');
        if (owner.unknown(symbol)) return status.notice(`${symbol} is not known to the server: no holdings can be kept for it`);
        const own = lots(symbol);
        // A symbol held nowhere yet opens straight on a new lot.
        set({ open: true, symbol, cursor: 0, confirmDelete: false, form: own.length === 0 ? formFor({ quantity: '', cost: '', date: '' }, undefined) : undefined });
      },
      close: () => set({ open: false }),
      move: (by: number) => {
        const e = open();
        if (e) set({ ...e, cursor: Math.max(0, Math.min(lots(e.symbol).length - 1, e.cursor + by)) });
      },
      add: () => {
        const e = open();
        if (e) set({ ...e, confirmDelete: false, form: formFor({ quantity: '', cost: '', date: '' }, undefined) });
      },
      edit: () => {
        const e = open();
        const lot = highlighted();
        if (!e) return;
        if (!lot) return status.notice('no lot here: a adds one');
        set({ ...e, form: formFor({ quantity: fixedText(lot.quantity), cost: fixedText(lot.cost), date: lot.bought ?? '' }, lot.id) });
      },
      editField: (value: string) => {
        const e = open();
        if (e?.form) set({ ...e, form: formEdited(e.form, value, check) });
      },
      moveField: (by: number) => {
        const e = open();
        if (e?.form) set({ ...e, form: formMoved(e.form, by) });
      },
      cancelForm: () => {
        const e = open();
        if (!e) return;
        // A symbol with no lots has nothing to show without its form.
        if (lots(e.symbol).length === 0) set({ open: false });
        else set({ ...e, form: undefined });
      },
      submit: () => {
        const e = open();
        if (!e?.form) return;
        const form = e.form;
        const wrong = firstProblem(form);
        if (wrong !== undefined) return set({ ...e, form: formRefused(form, wrong) });
        const checked = checkLot(form.values, owner.today());
        if ('problems' in checked) return;
        const { symbol } = e;
        const what = form.editing === undefined ? `lot of ${symbol} not saved` : `lot of ${symbol} not changed`;
        let first = false;
        const done = write(what, (b) => {
          if (form.editing !== undefined) return b.holdings.update(b.source, form.editing, checked.lot);
          first = b.holdings.list(b.source).length === 0;
          b.holdings.add(b.source, symbol, checked.lot, Date.now());
          return true;
        });
        if (!done) return;
        const own = lots(symbol);
        const at = form.editing === undefined ? own.length - 1 : own.findIndex((lot) => lot.id === form.editing);
        status.notice(
          `${symbol}: ${fixedText(checked.lot.quantity)} at ${fixedText(checked.lot.cost)} ${form.editing === undefined ? 'added' : 'saved'}` +
            (first ? ' (C shows the holdings columns: QTY, VALUE, DAY P/L, P/L, P/L%)' : ''),
        );
        set({ ...e, form: undefined, cursor: Math.max(0, at) });
      },
      askDelete: () => {
        const e = open();
        if (!e) return;
        if (!highlighted()) return status.notice('no lot here');
        set({ ...e, confirmDelete: true });
      },
      confirmDelete: () => {
        const e = open();
        const lot = highlighted();
        if (!e) return;
        set({ ...e, confirmDelete: false });
        if (!lot) return;
        if (write(`lot of ${e.symbol} not deleted`, (b) => b.holdings.remove(b.source, lot.id))) {
          status.notice(`${e.symbol}: the lot of ${fixedText(lot.quantity)} at ${fixedText(lot.cost)} deleted`);
          set({ ...e, confirmDelete: false, cursor: Math.max(0, Math.min(e.cursor, lots(e.symbol).length - 1)) });
        }
      },
      keep: () => {
        const e = open();
        if (e) set({ ...e, confirmDelete: false });
      },
      lots,
    };
  }, [owner, set, current, status]);

  return { editor, version, ...commands };
}
