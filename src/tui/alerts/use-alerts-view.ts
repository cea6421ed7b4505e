// The alerts view's decisions: which alert or firing is highlighted, the form that sets or edits
// an alert (checked as it is typed), pausing, snoozing and deleting. Every change is written to the
// history file at once; one that cannot be says so and keeps what was typed.
import { useMemo, useState } from 'react';
import { SYMBOL_PATTERN } from '../../api/rules.js';
import { alertLine, parseAlertLine } from '../../market/alert-grammar.js';
import { describeCondition, whenSetWords } from '../../market/alerts.js';
import type { LoggedFiring, SetAlert, StoredAlert } from '../../store/alerts-store.js';
import type { Books } from '../../store/price-recorder.js';
import { formatPrice } from '../../text/numbers.js';
import { firstProblem, type Form, formAt, formEdited, formMoved, formRefused, newForm } from '../state/form.js';
import type { FieldInput } from '../state/field-text.js';
import type { StatusBoard } from '../state/status.js';
import { type BooksOwner, readBooks, writeBooks } from '../state/books-write.js';
import { useLatest } from '../state/external-state.js';

export type AlertField = 'symbol' | 'condition';
export const ALERT_FIELDS: readonly AlertField[] = ['symbol', 'condition'];
/** A condition longer than this is no condition ("above 200 once" is 15). */
export const ALERT_FIELD_MAX: Readonly<Partial<Record<AlertField, number>>> = { condition: 60 };

export interface AlertForm extends Form<AlertField> {
  /** The alert being edited (its symbol stays); undefined for a new one. */
  editing: number | undefined;
  /** Saved or cancelled, the view closes too: it was opened for this form (a from the ticker). */
  closeAfter: boolean;
}

export type AlertsView =
  | { open: false }
  | {
      open: true;
      section: 'alerts' | 'log';
      cursor: number;
      logCursor: number;
      confirmDelete: boolean;
      form: AlertForm | undefined;
    };

/** What the view needs of the dashboard. */
export interface AlertsOwner extends BooksOwner {
  /** The symbol's price now, asked of the server when the ticker has none; `unknown` when it does not know it. */
  priceOf: (symbol: string) => Promise<{ price: number | undefined; unknown: boolean }>;
}

/** How long z snoozes an alert for, each press adding as much again. */
export const SNOOZE_MS = 60 * 60_000;

export const checkAlert = (values: Record<AlertField, string>): Partial<Record<AlertField, string>> => {
  const problems: Partial<Record<AlertField, string>> = {};
  const symbol = values.symbol.trim().toUpperCase();
  if (symbol === '') problems.symbol = 'symbol: type one, e.g. AAPL';
  else if (!SYMBOL_PATTERN.test(symbol)) problems.symbol = `symbol: ${JSON.stringify(values.symbol.trim())} is not a stock symbol`;
  const parsed = parseAlertLine(values.condition);
  if (typeof parsed === 'string') problems.condition = `condition: ${parsed}`;
  return problems;
};

export function useAlertsView(owner: AlertsOwner, status: StatusBoard, now: () => number = Date.now) {
  const [view, set, current] = useLatest<AlertsView>({ open: false });
  // Bumped by every change made here, so that the lists shown are read again.
  const [version, setVersion] = useState(0);

  const commands = useMemo(() => {
    const books = () => owner.books();
    const alerts = (): StoredAlert[] => readBooks(books(), (b) => b.alerts.list(b.source), []);
    const highlighted = (): StoredAlert | undefined => {
      const v = current();
      return v.open && v.section === 'alerts' ? alerts()[v.cursor] : undefined;
    };
    const changed = () => setVersion((n) => n + 1);
    const openView = (v: Partial<Extract<AlertsView, { open: true }>> = {}): Extract<AlertsView, { open: true }> => {
      const was = current();
      return { ...(was.open ? was : { open: true, section: 'alerts', cursor: 0, logCursor: 0, confirmDelete: false, form: undefined }), ...v };
    };
    /** Runs a write; one that fails is said, with what it was for, and the view stays as it was. */
    const write = (what: string, body: (b: Books) => boolean | void): boolean => {
      const done = writeBooks(owner, status, 'alerts', what, body);
      changed();
      return done;
    };
    const withAlert = (body: (alert: StoredAlert, b: Books) => void) => {
      const alert = highlighted();
      const v = current();
      if (!alert) return status.notice(v.open && v.section === 'log' ? 'Tab goes back to the alerts' : 'no alert here: a sets one');
      body(alert, books()!);
    };

    return {
      isOpen: () => current().open,
      current,
      open: () => set(openView()),
      close: () => set({ open: false }),
      /** The form for a new alert, on `symbol` when given (the ticker's or the chart's). */
      newAlert: (symbol?: string) => {
        const wasOpen = current().open;
        const values = { symbol: symbol ?? '', condition: '' };
        const form: AlertForm = { ...newForm(ALERT_FIELDS, values, checkAlert, ALERT_FIELD_MAX), editing: undefined, closeAfter: !wasOpen };
        set(openView({ form: symbol ? formAt(form, 'condition') : form, confirmDelete: false }));
      },
      edit: () =>
        withAlert((alert) => {
          const values = { symbol: alert.symbol, condition: alertLine({ condition: alert.condition, oneShot: alert.oneShot }) };
          set(openView({ form: formAt({ ...newForm(ALERT_FIELDS, values, checkAlert, ALERT_FIELD_MAX), editing: alert.id, closeAfter: false }, 'condition') }));
        }),
      editField: (input: FieldInput) => {
        const v = current();
        if (!v.open || !v.form || v.form.saving) return;
        // An edited alert's symbol is its own.
        if (v.form.field === 'symbol' && v.form.editing !== undefined) return;
        set({ ...v, form: formEdited(v.form, input, checkAlert) });
      },
      moveField: (by: number) => {
        const v = current();
        if (!v.open || !v.form) return;
        set({ ...v, form: formMoved(v.form, by) });
      },
      cancelForm: () => {
        const v = current();
        if (!v.open) return;
        set(v.form?.closeAfter ? { open: false } : { ...v, form: undefined });
      },
      submit: async () => {
        const v = current();
        if (!v.open || !v.form || v.form.saving) return;
        const form = v.form;
        const wrong = firstProblem(form);
        if (wrong !== undefined) {
          set({ ...v, form: formRefused(form, wrong) });
          return;
        }
        const spec = parseAlertLine(form.values.condition);
        if (typeof spec === 'string') return;
        const symbol = form.values.symbol.trim().toUpperCase();
        set({ ...v, form: { ...form, saving: true } });
        let quote: { price: number | undefined; unknown: boolean };
        try {
          quote = await owner.priceOf(symbol);
        } catch (error) {
          quote = { price: undefined, unknown: false };
          status.notice(`no price for ${symbol} now (${(error as Error).message}): the alert is set without one`);
        }
        const after = current();
        // Closed or changed while the price was asked.
        if (!after.open || after.form !== undefined && after.form.values !== form.values) return;
        const back = { ...after, form: { ...form, saving: false } };
        if (quote.unknown) {
          set({ ...back, form: formRefused<AlertField, AlertForm>({ ...back.form, problems: { ...form.problems, symbol: `symbol: ${symbol} is not known to the server` } }, 'symbol') });
          return;
        }
        const what = form.editing === undefined ? 'alert not set' : `alert ${form.editing} not changed`;
        let saved: SetAlert | undefined;
        const done = write(what, (b) => {
          const options = { price: quote.price, at: now(), oneShot: spec.oneShot };
          saved = form.editing === undefined ? b.alerts.add(b.source, symbol, spec.condition, options) : b.alerts.replace(b.source, form.editing, spec.condition, options);
          return saved !== undefined;
        });
        if (!done) {
          set(back);
          return;
        }
        const text = `${symbol} ${describeCondition(spec.condition, formatPrice)}${spec.oneShot ? ', once' : ''}`;
        // Shorter than alerts add's words, to fit the status line at 120 columns.
        const waits = whenSetWords(symbol, spec.condition, saved!.held, quote.price, formatPrice, true);
        status.notice(`${form.editing === undefined ? `alert ${saved!.id} set:` : `alert ${form.editing} is now`} ${text}${waits === undefined ? '' : ` (${waits})`}`);
        const list = alerts();
        const at = list.findIndex((a) => a.id === (saved?.id ?? form.editing));
        set(form.closeAfter ? { open: false } : { ...after, form: undefined, section: 'alerts', cursor: Math.max(0, at) });
      },
      move: (by: number) => {
        const v = current();
        if (!v.open) return;
        if (v.section === 'alerts') set({ ...v, cursor: Math.max(0, Math.min(alerts().length - 1, v.cursor + by)) });
        else set({ ...v, logCursor: Math.max(0, v.logCursor + by) });
      },
      /** The log's highlight kept within its length, which only the view knows when drawn. */
      clampLog: (length: number) => {
        const v = current();
        if (v.open && v.logCursor > Math.max(0, length - 1)) set({ ...v, logCursor: Math.max(0, length - 1) });
      },
      toggleSection: () => {
        const v = current();
        if (v.open) set({ ...v, section: v.section === 'alerts' ? 'log' : 'alerts' });
      },
      pause: () =>
        withAlert((alert) => {
          if (write(`alert ${alert.id} not changed`, (b) => b.alerts.pause(b.source, alert.id, !alert.paused))) status.notice(`alert ${alert.id} ${alert.paused ? 'resumed' : 'paused'}`);
        }),
      snooze: () =>
        withAlert((alert) => {
          const from = Math.max(now(), alert.snoozedUntil ?? 0);
          const until = from + SNOOZE_MS;
          if (write(`alert ${alert.id} not snoozed`, (b) => b.alerts.snooze(b.source, alert.id, until))) status.notice(`alert ${alert.id} snoozed until ${new Date(until).toTimeString().slice(0, 5)} (Z wakes it)`);
        }),
      wake: () =>
        withAlert((alert) => {
          if (alert.snoozedUntil === undefined) return status.notice(`alert ${alert.id} is not snoozed`);
          if (write(`alert ${alert.id} not woken`, (b) => b.alerts.snooze(b.source, alert.id, undefined))) status.notice(`alert ${alert.id} woken`);
        }),
      askDelete: () =>
        withAlert(() => {
          const v = current();
          if (v.open) set({ ...v, confirmDelete: true });
        }),
      confirmDelete: () => {
        const v = current();
        if (!v.open) return;
        const alert = highlighted();
        set({ ...v, confirmDelete: false });
        if (!alert) return;
        if (write(`alert ${alert.id} not deleted`, (b) => b.alerts.remove(b.source, alert.id))) {
          status.notice(`alert ${alert.id} deleted: ${alert.symbol} ${describeCondition(alert.condition, formatPrice)}`);
          set({ ...v, confirmDelete: false, cursor: Math.max(0, Math.min(v.cursor, alerts().length - 1)) });
        }
      },
      keep: () => {
        const v = current();
        if (v.open) set({ ...v, confirmDelete: false });
      },
    };
  }, [owner, set, current, status, now]);

  return { view, version, ...commands };
}

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
