// What the alerts view shows: which section and which alert or firing is highlighted, a delete
// asked, and the form that sets or edits an alert, checked as it is typed.
import { SYMBOL_PATTERN } from '../../api/rules.js';
import { parseAlertLine } from '../../market/alert-grammar.js';
import type { Form } from '../state/form.js';

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
