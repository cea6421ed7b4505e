// Which symbol is open in the detail view and over which span. A class outside React (use-detail.ts
// reads it): the key handler may take several keys before the next render, and each reads what
// the one before it left.
import { type SpanName, stepSpan } from '../../market/spans.js';
import { externalValue } from '../state/external-state.js';

export interface DetailState {
  symbol: string;
  span: SpanName;
}

type Open = DetailState | undefined;

export class DetailController {
  readonly #state = externalValue<Open>(undefined);
  /** The span chosen last is kept for the next symbol opened, as a person looking at a week wants. */
  #lastSpan: SpanName = '1d';

  /** The symbol open now, whatever the last render saw; undefined when none is. */
  readonly current = (): Open => this.#state.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#state.subscribe(listener);

  #set(next: Open): void {
    if (next) this.#lastSpan = next.span;
    this.#state.dispatch(next);
  }

  readonly open = (symbol: string): void => this.#set({ symbol, span: this.#lastSpan });
  readonly close = (): void => this.#set(undefined);

  readonly span = (span: SpanName): void => {
    const open = this.current();
    if (open) this.#set({ ...open, span });
  };

  readonly stepSpan = (by: number): void => {
    const open = this.current();
    if (open) this.#set({ ...open, span: stepSpan(open.span, by) });
  };

  /** The symbol `by` rows on in `order` (the watchlist as shown), stopping at either end. */
  readonly stepSymbol = (by: number, order: readonly string[]): void => {
    const open = this.current();
    if (!open || order.length === 0) return;
    const at = order.indexOf(open.symbol);
    const next = order[Math.max(0, Math.min(order.length - 1, (at < 0 ? 0 : at) + by))]!;
    if (next !== open.symbol) this.#set({ ...open, symbol: next });
  };
}

/** What the dashboard and the detail commands call. */
export type DetailCommands = Pick<DetailController, 'current' | 'open' | 'close' | 'span' | 'stepSpan' | 'stepSymbol'>;
