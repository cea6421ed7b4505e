// The holdings editor's controller: a symbol's lots, the form that adds or edits one (checked as it
// is typed: a quantity and a cost above zero, a real date not in the future), and deleting one.
// Each change is on disk when it is said to be; one that cannot be saved says so and keeps the
// form. A class outside React (use-holdings-editor.ts reads it): every command reads the latest
// editor, never a render's.
import { checkLot, type Lot, type LotField, type LotInput, noLot } from '../../market/holdings.js';
import { fixedText } from '../../market/money.js';
import type { Books } from '../../store/price-recorder.js';
import { firstProblem, formEdited, formMoved, formRefused, newForm } from '../state/form.js';
import type { FieldInput } from '../state/field-text.js';
import type { StatusBoard } from '../state/status.js';
import type { BooksOwner } from '../state/books-write.js';
import { BooksController } from '../state/books-controller.js';
import { type HoldingsEditor, LOT_FIELD_MAX, LOT_FIELDS, type LotForm } from './holdings-state.js';
import { highlightedPlace, highlightOn, type LotHighlight } from './lot-highlight.js';

type OpenEditor = Extract<HoldingsEditor, { open: true }>;

export interface HoldingsOwner extends BooksOwner {
  /** Whether the server said it does not know `symbol`: no lot is kept for what cannot be valued. */
  unknown: (symbol: string) => boolean;
  /** Today, YYYY-MM-DD, on this machine's calendar. */
  today: () => string;
}

export interface HoldingsControllerOptions {
  owner: HoldingsOwner;
  status: StatusBoard;
}

export class HoldingsController extends BooksController<HoldingsEditor, HoldingsOwner> {
  constructor({ owner, status }: HoldingsControllerOptions) {
    super(owner, status, 'holdings', { open: false });
  }

  readonly #check = (values: LotInput): Partial<Record<LotField, string>> => {
    const checked = checkLot(values, this.owner.today());
    return 'problems' in checked ? checked.problems : {};
  };

  #formFor(values: LotInput, editing: number | undefined): LotForm {
    return { ...newForm(LOT_FIELDS, values, this.#check, LOT_FIELD_MAX), editing };
  }

  #newLot(): LotForm {
    return this.#formFor({ quantity: '', cost: '', date: '' }, undefined);
  }

  #open(): OpenEditor | undefined {
    const e = this.current();
    return e.open ? e : undefined;
  }

  /** The lot highlighted (none in a symbol without lots), and the highlight set on it where it is now. */
  #highlighted(e: OpenEditor): { lot: Lot | undefined; at: LotHighlight } {
    const own = this.lots(e.symbol);
    const at = highlightOn(own, highlightedPlace(own, e));
    return { lot: own[at.cursor], at };
  }

  /** Said when the lot a key was for has gone meanwhile (removed by another process). */
  #gone(b: Books, symbol: string, number: number): false {
    this.status.notice(noLot(symbol, number, b.holdings.lastNumber(b.source, symbol)));
    return false;
  }

  /** The lots of `symbol` as the file has them now. */
  readonly lots = (symbol: string): Lot[] => this.read((b) => b.holdings.list(b.source).filter((lot) => lot.symbol === symbol), []);

  readonly open = (symbol: string | undefined): void => {
    if (symbol === undefined) return this.status.notice('the watchlist is empty: / adds a symbol to hold');
    if (this.owner.unknown(symbol)) return this.status.notice(`${symbol} is not known to the server: no holdings can be kept for it`);
    const own = this.lots(symbol);
    // A symbol held nowhere yet opens straight on a new lot.
    this.show({ open: true, symbol, ...highlightOn(own, 0), confirmDelete: false, form: own.length === 0 ? this.#newLot() : undefined });
  };

  readonly close = (): void => this.show({ open: false });

  readonly move = (by: number): void => {
    const e = this.#open();
    if (!e) return;
    const own = this.lots(e.symbol);
    this.show({ ...e, ...highlightOn(own, highlightedPlace(own, e) + by) });
  };

  readonly add = (): void => {
    const e = this.#open();
    if (e) this.show({ ...e, confirmDelete: false, form: this.#newLot() });
  };

  readonly edit = (): void => {
    const e = this.#open();
    if (!e) return;
    const { lot, at } = this.#highlighted(e);
    if (!lot) return this.status.notice('no lot here: a adds one');
    this.show({ ...e, ...at, form: this.#formFor({ quantity: fixedText(lot.quantity), cost: fixedText(lot.cost), date: lot.bought ?? '' }, lot.number) });
  };

  readonly editField = (input: FieldInput): void => {
    const e = this.#open();
    if (e?.form) this.show({ ...e, form: formEdited(e.form, input, this.#check) });
  };

  readonly moveField = (by: number): void => {
    const e = this.#open();
    if (e?.form) this.show({ ...e, form: formMoved(e.form, by) });
  };

  readonly cancelForm = (): void => {
    const e = this.#open();
    if (!e) return;
    // A symbol with no lots has nothing to show without its form.
    if (this.lots(e.symbol).length === 0) this.show({ open: false });
    else this.show({ ...e, form: undefined });
  };

  readonly submit = (): void => {
    const e = this.#open();
    if (!e?.form) return;
    const form = e.form;
    const wrong = firstProblem(form);
    if (wrong !== undefined) return this.show({ ...e, form: formRefused(form, wrong) });
    const checked = checkLot(form.values, this.owner.today());
    if ('problems' in checked) return;
    const { symbol } = e;
    const what = form.editing === undefined ? `lot of ${symbol} not saved` : `lot of ${symbol} not changed`;
    let first = false;
    let number = form.editing;
    const done = this.write(what, (b) => {
      if (form.editing !== undefined) return b.holdings.update(b.source, symbol, form.editing, checked.lot) || this.#gone(b, symbol, form.editing);
      first = b.holdings.list(b.source).length === 0;
      number = b.holdings.add(b.source, symbol, checked.lot, Date.now()).number;
      return true;
    });
    if (!done) return;
    const own = this.lots(symbol);
    this.status.notice(
      `${symbol}: ${fixedText(checked.lot.quantity)} at ${fixedText(checked.lot.cost)} ${form.editing === undefined ? 'added' : 'saved'}` +
        (first ? ' (C shows the holdings columns: QTY, VALUE, DAY P/L, P/L, P/L%)' : ''),
    );
    this.show({ ...e, form: undefined, ...highlightOn(own, own.findIndex((lot) => lot.number === number)) });
  };

  readonly askDelete = (): void => {
    const e = this.#open();
    if (!e) return;
    const { lot, at } = this.#highlighted(e);
    if (!lot) return this.status.notice('no lot here');
    // The question is about this lot, by its number, whatever moves meanwhile.
    this.show({ ...e, ...at, confirmDelete: true });
  };

  readonly confirmDelete = (): void => {
    const e = this.#open();
    if (!e) return;
    this.show({ ...e, confirmDelete: false });
    const { symbol, lot: number } = e;
    if (number === undefined) return;
    const lot = this.lots(symbol).find((l) => l.number === number);
    if (this.write(`lot ${number} of ${symbol} not deleted`, (b) => b.holdings.remove(b.source, symbol, number) || this.#gone(b, symbol, number)) && lot) {
      this.status.notice(`${symbol}: lot ${number}, ${fixedText(lot.quantity)} at ${fixedText(lot.cost)}, deleted`);
    }
    // The highlight on the lot that took its place.
    const own = this.lots(symbol);
    this.show({ ...e, confirmDelete: false, ...highlightOn(own, highlightedPlace(own, e)) });
  };

  readonly keep = (): void => {
    const e = this.#open();
    if (e) this.show({ ...e, confirmDelete: false });
  };
}

/** What the dashboard and the holdings commands call. */
export type HoldingsCommands = Pick<
  HoldingsController,
  'isOpen' | 'current' | 'open' | 'close' | 'move' | 'add' | 'edit' | 'editField' | 'moveField' | 'cancelForm' | 'submit' | 'askDelete' | 'confirmDelete' | 'keep' | 'lots'
>;
