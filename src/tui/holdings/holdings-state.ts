// What the holdings editor shows: a symbol's lots with one highlighted, a delete asked, and the
// form that adds or edits a lot.
import type { LotField } from '../../market/holdings.js';
import type { Form } from '../state/form.js';
import type { LotHighlight } from './lot-highlight.js';

export const LOT_FIELDS: readonly LotField[] = ['quantity', 'cost', 'date'];
/** A date is YYYY-MM-DD; a quantity or a cost longer than this is no number a person holds. */
export const LOT_FIELD_MAX: Readonly<Record<LotField, number>> = { quantity: 20, cost: 20, date: 10 };

export interface LotForm extends Form<LotField> {
  /** The number of the lot being edited; undefined for a new one. */
  editing: number | undefined;
}

/** The highlight is a lot's (LotHighlight), which `d` asks about and `e` edits. */
export type HoldingsEditor = { open: false } | ({ open: true; symbol: string; confirmDelete: boolean; form: LotForm | undefined } & LotHighlight);
