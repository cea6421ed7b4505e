// The alerts view's controller: which alert or firing is highlighted, the form that sets or edits
// an alert, pausing, snoozing and deleting. Every change is written to the history file at once;
// one that cannot be says so and keeps what was typed. A class outside React (use-alerts-view.ts
// reads it): every command reads the latest view, never a render's.
import { alertLine, parseAlertLine } from '../../market/alert-grammar.js';
import { describeCondition, whenSetWords } from '../../market/alerts.js';
import type { LoggedFiring, SetAlert, StoredAlert } from '../../store/alerts-store.js';
import type { Books } from '../../store/price-recorder.js';
import { formatPrice } from '../../text/numbers.js';
import { firstProblem, formAt, formEdited, formMoved, formRefused, newForm } from '../state/form.js';
import type { FieldInput } from '../state/field-text.js';
import type { StatusBoard } from '../state/status.js';
import type { BooksOwner } from '../state/books-write.js';
import { BooksController } from '../state/books-controller.js';
import { ALERT_FIELD_MAX, ALERT_FIELDS, type AlertField, type AlertForm, type AlertsView, checkAlert, SNOOZE_MS } from './alerts-state.js';

type OpenView = Extract<AlertsView, { open: true }>;

/** What the view needs of the dashboard. */
export interface AlertsOwner extends BooksOwner {
  /** The symbol's price now, asked of the server when the ticker has none; `unknown` when it does not know it. */
  priceOf: (symbol: string) => Promise<{ price: number | undefined; unknown: boolean }>;
}

export interface AlertsControllerOptions {
  owner: AlertsOwner;
  status: StatusBoard;
  /** The clock alerts are set and snoozed by. */
  now?: (() => number) | undefined;
}

export class AlertsController extends BooksController<AlertsView, AlertsOwner> {
  readonly #now: () => number;

  constructor({ owner, status, now = Date.now }: AlertsControllerOptions) {
    super(owner, status, 'alerts', { open: false });
    this.#now = now;
  }

  #alerts(): StoredAlert[] {
    return this.read((b) => b.alerts.list(b.source), []);
  }

  #firings(): LoggedFiring[] {
    return this.read((b) => b.alerts.firings(b.source), []);
  }

  #highlighted(): StoredAlert | undefined {
    const v = this.current();
    return v.open && v.section === 'alerts' ? this.#alerts()[v.cursor] : undefined;
  }

  /** The view open, as it is or as it opens, with `v` changed. */
  #openView(v: Partial<OpenView> = {}): OpenView {
    const was = this.current();
    return { ...(was.open ? was : { open: true, section: 'alerts', cursor: 0, logCursor: 0, confirmDelete: false, form: undefined }), ...v };
  }

  #withAlert(body: (alert: StoredAlert, b: Books) => void): void {
    const alert = this.#highlighted();
    const v = this.current();
    if (!alert) return this.status.notice(v.open && v.section === 'log' ? 'Tab goes back to the alerts' : 'no alert here: a sets one');
    body(alert, this.owner.books()!);
  }

  readonly open = (): void => this.show(this.#openView());
  readonly close = (): void => this.show({ open: false });

  /** The form for a new alert, on `symbol` when given (the ticker's or the chart's). */
  readonly newAlert = (symbol?: string): void => {
    const wasOpen = this.current().open;
    const values = { symbol: symbol ?? '', condition: '' };
    const form: AlertForm = { ...newForm(ALERT_FIELDS, values, checkAlert, ALERT_FIELD_MAX), editing: undefined, closeAfter: !wasOpen };
    this.show(this.#openView({ form: symbol ? formAt(form, 'condition') : form, confirmDelete: false }));
  };

  readonly edit = (): void =>
    this.#withAlert((alert) => {
      const values = { symbol: alert.symbol, condition: alertLine({ condition: alert.condition, oneShot: alert.oneShot }) };
      this.show(this.#openView({ form: formAt({ ...newForm(ALERT_FIELDS, values, checkAlert, ALERT_FIELD_MAX), editing: alert.id, closeAfter: false }, 'condition') }));
    });

  readonly editField = (input: FieldInput): void => {
    const v = this.current();
    if (!v.open || !v.form || v.form.saving) return;
    // An edited alert's symbol is its own.
    if (v.form.field === 'symbol' && v.form.editing !== undefined) return;
    this.show({ ...v, form: formEdited(v.form, input, checkAlert) });
  };

  readonly moveField = (by: number): void => {
    const v = this.current();
    if (!v.open || !v.form) return;
    this.show({ ...v, form: formMoved(v.form, by) });
  };

  readonly cancelForm = (): void => {
    const v = this.current();
    if (!v.open) return;
    this.show(v.form?.closeAfter ? { open: false } : { ...v, form: undefined });
  };

  readonly submit = async (): Promise<void> => {
    const v = this.current();
    if (!v.open || !v.form || v.form.saving) return;
    const form = v.form;
    const wrong = firstProblem(form);
    if (wrong !== undefined) {
      this.show({ ...v, form: formRefused(form, wrong) });
      return;
    }
    const spec = parseAlertLine(form.values.condition);
    if (typeof spec === 'string') return;
    const symbol = form.values.symbol.trim().toUpperCase();
    this.show({ ...v, form: { ...form, saving: true } });
    let quote: { price: number | undefined; unknown: boolean };
    try {
      quote = await this.owner.priceOf(symbol);
    } catch (error) {
      quote = { price: undefined, unknown: false };
      this.status.notice(`no price for ${symbol} now (${(error as Error).message}): the alert is set without one`);
    }
    const after = this.current();
    // Closed or changed while the price was asked.
    if (!after.open || (after.form !== undefined && after.form.values !== form.values)) return;
    const back = { ...after, form: { ...form, saving: false } };
    if (quote.unknown) {
      this.show({ ...back, form: formRefused<AlertField, AlertForm>({ ...back.form, problems: { ...form.problems, symbol: `symbol: ${symbol} is not known to the server` } }, 'symbol') });
      return;
    }
    const what = form.editing === undefined ? 'alert not set' : `alert ${form.editing} not changed`;
    let saved: SetAlert | undefined;
    const done = this.write(what, (b) => {
      const options = { price: quote.price, at: this.#now(), oneShot: spec.oneShot };
      saved = form.editing === undefined ? b.alerts.add(b.source, symbol, spec.condition, options) : b.alerts.replace(b.source, form.editing, spec.condition, options);
      return saved !== undefined;
    });
    if (!done) {
      this.show(back);
      return;
    }
    const text = `${symbol} ${describeCondition(spec.condition, formatPrice)}${spec.oneShot ? ', once' : ''}`;
    // Shorter than alerts add's words, to fit the status line at 120 columns.
    const waits = whenSetWords(symbol, spec.condition, saved!.held, quote.price, formatPrice, true);
    this.status.notice(`${form.editing === undefined ? `alert ${saved!.id} set:` : `alert ${form.editing} is now`} ${text}${waits === undefined ? '' : ` (${waits})`}`);
    const list = this.#alerts();
    const at = list.findIndex((a) => a.id === (saved?.id ?? form.editing));
    this.show(form.closeAfter ? { open: false } : { ...after, form: undefined, section: 'alerts', cursor: Math.max(0, at) });
  };

  readonly move = (by: number): void => {
    const v = this.current();
    if (!v.open) return;
    if (v.section === 'alerts') this.show({ ...v, cursor: Math.max(0, Math.min(this.#alerts().length - 1, v.cursor + by)) });
    else this.show({ ...v, logCursor: Math.max(0, Math.min(this.#firings().length - 1, v.logCursor + by)) });
  };

  readonly toggleSection = (): void => {
    const v = this.current();
    if (v.open) this.show({ ...v, section: v.section === 'alerts' ? 'log' : 'alerts' });
  };

  readonly pause = (): void =>
    this.#withAlert((alert) => {
      if (this.write(`alert ${alert.id} not changed`, (b) => b.alerts.pause(b.source, alert.id, !alert.paused))) this.status.notice(`alert ${alert.id} ${alert.paused ? 'resumed' : 'paused'}`);
    });

  readonly snooze = (): void =>
    this.#withAlert((alert) => {
      const from = Math.max(this.#now(), alert.snoozedUntil ?? 0);
      const until = from + SNOOZE_MS;
      if (this.write(`alert ${alert.id} not snoozed`, (b) => b.alerts.snooze(b.source, alert.id, until))) {
        this.status.notice(`alert ${alert.id} snoozed until ${new Date(until).toTimeString().slice(0, 5)} (Z wakes it)`);
      }
    });

  readonly wake = (): void =>
    this.#withAlert((alert) => {
      if (alert.snoozedUntil === undefined) return this.status.notice(`alert ${alert.id} is not snoozed`);
      if (this.write(`alert ${alert.id} not woken`, (b) => b.alerts.snooze(b.source, alert.id, undefined))) this.status.notice(`alert ${alert.id} woken`);
    });

  readonly askDelete = (): void =>
    this.#withAlert(() => {
      const v = this.current();
      if (v.open) this.show({ ...v, confirmDelete: true });
    });

  readonly confirmDelete = (): void => {
    const v = this.current();
    if (!v.open) return;
    const alert = this.#highlighted();
    this.show({ ...v, confirmDelete: false });
    if (!alert) return;
    if (this.write(`alert ${alert.id} not deleted`, (b) => b.alerts.remove(b.source, alert.id))) {
      this.status.notice(`alert ${alert.id} deleted: ${alert.symbol} ${describeCondition(alert.condition, formatPrice)}`);
      this.show({ ...v, confirmDelete: false, cursor: Math.max(0, Math.min(v.cursor, this.#alerts().length - 1)) });
    }
  };

  readonly keep = (): void => {
    const v = this.current();
    if (v.open) this.show({ ...v, confirmDelete: false });
  };
}

/** What the dashboard and the alerts commands call. */
export type AlertsCommands = Pick<
  AlertsController,
  | 'isOpen' | 'current' | 'open' | 'close' | 'newAlert' | 'edit' | 'editField' | 'moveField' | 'cancelForm' | 'submit'
  | 'move' | 'toggleSection' | 'pause' | 'snooze' | 'wake' | 'askDelete' | 'confirmDelete' | 'keep'
>;

/**
 * The view's lists as they stand: every alert of this server, and the last firings, newest first;
 * or why they cannot be read.
 */
export function readAlerts(books: Books | undefined): { alerts: StoredAlert[]; firings: LoggedFiring[]; problem?: string } {
  if (!books) return { alerts: [], firings: [] };
  try {
    return { alerts: books.alerts.list(books.source), firings: books.alerts.firings(books.source) };
  } catch (error) {
    return { alerts: [], firings: [], problem: `alerts not read: ${(error as Error).message}` };
  }
}
