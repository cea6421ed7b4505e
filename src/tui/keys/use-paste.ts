// Where the dashboard's pastes go: the paced input asks the handler registered here when a
// paste's turn comes (after the keys before it), and types what it returns.
import { createContext, useContext, useEffect, useRef } from 'react';
import type { PasteHandler } from '../paced-input.js';

/** The paced input in the dashboard; a stand-in where nothing pastes (tests rendering parts). */
export const PasteTarget = createContext<{ pasteHandler: PasteHandler | undefined }>({ pasteHandler: undefined });

export function usePaste(handler: PasteHandler): void {
  const target = useContext(PasteTarget);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    target.pasteHandler = (text) => latest.current(text);
    return () => {
      target.pasteHandler = undefined;
    };
  }, [target]);
}
