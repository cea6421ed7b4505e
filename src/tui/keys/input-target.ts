// What the dashboard tells the paced input, and asks of it: where pastes go (the handler
// registered here is asked when a paste's turn comes, after the keys before it) and which keys
// may be taken as one run with a count (a held j arriving faster than it is drawn).
import { createContext, useContext, useEffect, useRef } from 'react';
import type { PacedInput, PasteHandler } from '../paced-input.js';

export type InputTargetShape = Pick<PacedInput, 'pasteHandler' | 'takesRuns' | 'repeats'>;

/** The paced input in the dashboard; a stand-in where nothing is paced (tests rendering parts). */
export const InputTarget = createContext<InputTargetShape>({ pasteHandler: undefined, takesRuns: undefined, repeats: 1 });

export function usePaste(handler: PasteHandler): void {
  const target = useContext(InputTarget);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    target.pasteHandler = (text) => latest.current(text);
    return () => {
      target.pasteHandler = undefined;
    };
  }, [target]);
}

/**
 * Lets the paced input hand over a run of the same key sequence as one, while `takesRuns` says
 * the keys would go to the router (not a text field, whose cursor keys are its own); returns
 * how many times the key sequence being handled now was pressed.
 */
export function useKeyRuns(takesRuns: () => boolean): () => number {
  const target = useContext(InputTarget);
  const latest = useRef(takesRuns);
  latest.current = takesRuns;
  useEffect(() => {
    target.takesRuns = () => latest.current();
    return () => {
      target.takesRuns = undefined;
    };
  }, [target]);
  return () => target.repeats;
}
