// Which pane has the keys. Kept in state for drawing and in a ref for the key router, which may
// take several keys before the next render (Tab then j: j goes to the pane Tab gave the keys to).
import { useRef, useState } from 'react';
import type { PaneName } from '../keys/scopes.js';

export function useFocus(first: PaneName = 'contacts') {
  const [drawn, setDrawn] = useState<PaneName>(first);
  const latest = useRef<PaneName>(first);
  return {
    /** The pane with the keys, as drawn. */
    focus: drawn,
    /** The pane with the keys as of the last key, not the last render. */
    current: () => latest.current,
    /** The keys to the other pane. */
    toggle: () => {
      latest.current = latest.current === 'contacts' ? 'ticker' : 'contacts';
      setDrawn(latest.current);
    },
  };
}
