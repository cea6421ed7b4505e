// What covers the panes (the help, the message log) and how far it is scrolled (the help's page,
// the log's first line). Kept in a ref as well as in state: the key handler may take several
// keys before the next render.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Overlay } from '../keys/scopes.js';

interface OverlayState {
  kind: Overlay | undefined;
  offset: number;
}

export function useOverlay() {
  const [state, setState] = useState<OverlayState>({ kind: undefined, offset: 0 });
  const ref = useRef(state);
  const set = useCallback((next: OverlayState) => {
    ref.current = next;
    setState(next);
  }, []);
  const commands = useMemo(
    () => ({
      /** The overlay as of the last key, not the last render. */
      current: () => ref.current.kind,
      open: (kind: Overlay) => set({ kind, offset: 0 }),
      close: () => set({ kind: undefined, offset: 0 }),
      /** Moves by `by` within 0..max (a terminal made smaller may have left it past max). */
      scroll: (by: number, max: number) => {
        const from = Math.min(ref.current.offset, Math.max(0, max));
        const offset = Math.max(0, Math.min(Math.max(0, max), from + by));
        if (offset !== ref.current.offset) set({ ...ref.current, offset });
      },
    }),
    [set],
  );
  return { ...state, ...commands };
}
