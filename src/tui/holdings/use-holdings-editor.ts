// The holdings editor's decisions: a symbol's lots, the form that adds or edits one (checked as it
// is typed: a quantity and a cost above zero, a real date not in the future), and deleting one.
// Each change is on disk when it is said to be; one that cannot be saved says so and keeps the form.
import { useMemo, useState } from 'react';
import { checkLot, type Lot, type LotField, type LotInput, noLot } from '../../market/holdings.js';
import { fixedText } from '../../market/money.js';
import type { Books } from '../../store/price-recorder.js';
import { firstProblem, type Form, formEdited, formMoved, formRefused, newForm } from '../state/form.js';
import type { FieldInput } from '../state/field-text.js';
import type { StatusBoard } from '../state/status.js';
import { type BooksOwner, readBooks, writeBooks } from '../state/books-write.js';
import { useLatest } from '../state/external-state.js';
import { highlightedPlace, highlightOn, type LotHighlight } from './lot-highlight.js';

export const LOT_FIELDS: readonly LotField[] = ['quantity', 'cost', 'date'];
/** A date is YYYY-MM-DD; a quantity or a cost longer than this is no number a person holds. */
export const LOT_FIELD_MAX: Readonly<Record<LotField, number>> = { quantity: 20, cost: 20, date: 10 };

export interface LotForm extends Form<LotField> {
  /** The number of the lot being edited; undefined for a new one. */
  editing: number | undefined;
}

/** The highlight is a lot's (LotHighlight), which `d` asks about and `e` edits. */
export type HoldingsEditor = { open: false } | ({ open: true; symbol: string; confirmDelete: boolean; form: LotForm | undefined } & LotHighlight);

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

export function useHoldingsEditor(owner: HoldingsOwner, status: StatusBoard) {
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
    /** The lot highlighted (none in a symbol without lots), and the highlight set on it where it is now. */
    const highlighted = (e: Extract<HoldingsEditor, { open: true }>): { lot: Lot | undefined; at: LotHighlight } => {
      const own = lots(e.symbol);
      const at = highlightOn(own, highlightedPlace(own, e));
      return { lot: own[at.cursor], at };
    };
    /** Said when the lot a key was for has gone meanwhile (removed by another process). */
    const gone = (b: Books, symbol: string, number: number): false => {
      status.notice(noLot(symbol, number, b.holdings.lastNumber(b.source, symbol)));
      return false;
    };
    /** A write to the lots; false, and said, when it cannot be made. */
    const write = (what: string, body: (b: Books) => boolean | void): boolean => {
      const done = writeBooks(owner, status, 'holdings', what, body);
      setVersion((n) => n + 1);
      return done;
    };
    const formFor = (values: LotInput, editing: number | undefined): LotForm => ({ ...newForm(LOT_FIELDS, values, check, LOT_FIELD_MAX), editing });

    return {
      isOpen: () => current().open,
      current,
      open: (symbol: string | undefined) => {
        if (symbol === undefined) return status.notice('the watchlist is empty: / adds a symbol to hold');
        if (owner.unknown(symbol)) return status.notice(`${symbol} is not known to the server: no holdings can be kept for it`);
        const own = lots(symbol);
        // A symbol held nowhere yet opens straight on a new lot.
        set({ open: true, symbol, ...highlightOn(own, 0), confirmDelete: false, form: own.length === 0 ? formFor({ quantity: '', cost: '', date: '' }, undefined) : undefined });
      },
      close: () => set({ open: false }),
      move: (by: number) => {
        const e = open();
        if (!e) return;
        const own = lots(e.symbol);
        set({ ...e, ...highlightOn(own, highlightedPlace(own, e) + by) });
      },
      add: () => {
        const e = open();
        if (e) set({ ...e, confirmDelete: false, form: formFor({ quantity: '', cost: '', date: '' }, undefined) });
      },
      edit: () => {
        const e = open();
        if (!e) return;
        const { lot, at } = highlighted(e);
        if (!lot) return status.notice('no lot here: a adds one');
        set({ ...e, ...at, form: formFor({ quantity: fixedText(lot.quantity), cost: fixedText(lot.cost), date: lot.bought ?? '' }, lot.number) });
      },
      editField: (input: FieldInput) => {
        const e = open();
        if (e?.form) set({ ...e, form: formEdited(e.form, input, check) });
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
        let number = form.editing;
        const done = write(what, (b) => {
          if (form.editing !== undefined) return b.holdings.update(b.source, symbol, form.editing, checked.lot) || gone(b, symbol, form.editing);
          first = b.holdings.list(b.source).length === 0;
          number = b.holdings.add(b.source, symbol, checked.lot, Date.now()).number;
          return true;
        });
        if (!done) return;
        const own = lots(symbol);
        status.notice(
          `${symbol}: ${fixedText(checked.lot.quantity)} at ${fixedText(checked.lot.cost)} ${form.editing === undefined ? 'added' : 'saved'}` +
            (first ? ' (C shows the holdings columns: QTY, VALUE, DAY P/L, P/L, P/L%)' : ''),
        );
        set({ ...e, form: undefined, ...highlightOn(own, own.findIndex((lot) => lot.number === number)) });
      },
      askDelete: () => {
        const e = open();
        if (!e) return;
        const { lot, at } = highlighted(e);
        if (!lot) return status.notice('no lot here');
        // The question is about this lot, by its number, whatever moves meanwhile.
        set({ ...e, ...at, confirmDelete: true });
      },
      confirmDelete: () => {
        const e = open();
        if (!e) return;
        set({ ...e, confirmDelete: false });
        const { symbol, lot: number } = e;
        if (number === undefined) return;
        const lot = lots(symbol).find((l) => l.number === number);
        if (write(`lot ${number} of ${symbol} not deleted`, (b) => b.holdings.remove(b.source, symbol, number) || gone(b, symbol, number)) && lot) {
          status.notice(`${symbol}: lot ${number}, ${fixedText(lot.quantity)} at ${fixedText(lot.cost)}, deleted`);
        }
        // The highlight on the lot that took its place.
        const own = lots(symbol);
        set({ ...e, confirmDelete: false, ...highlightOn(own, highlightedPlace(own, e)) });
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
