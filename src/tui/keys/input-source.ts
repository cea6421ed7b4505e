// Where the dashboard's input comes from: the terminal reader in a run, a reader over a fake
// keyboard in tests. The one input handler (the key router) puts itself in its slot while
// mounted, and is handed each read's events there.
import { createContext, useContext, useEffect, useRef } from 'react';
import type { InputHandler } from './terminal-reader.js';

/** What takes the one handler: a TerminalReader. */
export interface InputSource {
  handler: InputHandler | undefined;
}

/** Nothing is read where nothing is given (a test drawing parts of the dashboard). */
export const InputSourceContext = createContext<InputSource>({ handler: undefined });

/** Puts `handler` (its latest render's) in the input's slot while the caller is mounted. */
export function useInputHandler(handler: InputHandler): void {
  const source = useContext(InputSourceContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const call: InputHandler = (events) => latest.current(events);
    source.handler = call;
    return () => {
      if (source.handler === call) source.handler = undefined;
    };
  }, [source]);
}
