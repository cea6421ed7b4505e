// Which symbol is open in the detail view and over which span; kept in a ref as well as in state,
// since the key handler may take several keys before the next render.
import { useCallback, useMemo, useRef, useState } from 'react';
import { type SpanName, stepSpan } from '../../market/spans.js';

export interface DetailState {
  symbol: string;
  span: SpanName;
}

export function useDetail() {
  const [state, setState] = useState<DetailState | undefined>(undefined);
  const ref = useRef(state);
  // The span chosen last is kept for the next symbol opened, as a person looking at a week wants.
  const lastSpan = useRef<SpanName>('1d');
  const set = useCallback((next: DetailState | undefined) => {
    ref.current = next;
    if (next) lastSpan.current = next.span;
    setState(next);
  }, []);
  const commands = useMemo(
    () => ({
      current: () => ref.current,
      open: (symbol: string) => set({ symbol, span: lastSpan.current }),
      close: () => set(undefined),
      span: (span: SpanName) => ref.current && set({ ...ref.current, span }),
      stepSpan: (by: number) => ref.current && set({ ...ref.current, span: stepSpan(ref.current.span, by) }),
      /** The symbol `by` rows on in `order` (the watchlist as shown), stopping at either end. */
      stepSymbol: (by: number, order: readonly string[]) => {
        const open = ref.current;
        if (!open || order.length === 0) return;
        const at = order.indexOf(open.symbol);
        const next = order[Math.max(0, Math.min(order.length - 1, (at < 0 ? 0 : at) + by))]!;
        if (next !== open.symbol) set({ ...open, symbol: next });
      },
    }),
    [set],
  );
  return { state, ...commands };
}
