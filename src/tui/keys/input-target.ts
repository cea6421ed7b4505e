// What the dashboard tells the paced input, and asks of it: where pastes and mouse reports go
// (the handler registered here is told when one's turn comes, after the keys before it) and which keys
// may be taken as one run with a count (a held j arriving faster than it is drawn).
import { createContext, useContext, useEffect, useRef } from 'react';
import type { MouseHandler, PacedInput, PasteHandler } from './paced-input.js';

export type InputTargetShape = Pick<PacedInput, 'pasteHandler' | 'mouseHandler' | 'takesRuns' | 'repeats'>;

/** The paced input in the dashboard; a stand-in where nothing is paced (tests rendering parts). */
export const InputTarget = createContext<InputTargetShape>({ pasteHandler: undefined, mouseHandler: undefined, takesRuns: undefined, repeats: 1 });

type HandlerSlot = 'pasteHandler' | 'mouseHandler';

/** Puts `handler` (its latest render's) in the paced input's slot while the caller is mounted. */
function useHandler<S extends HandlerSlot>(slot: S, handler: NonNullable<InputTargetShape[S]>): void {
  const target = useContext(InputTarget);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const call = (...args: unknown[]): unknown => (latest.current as (...given: unknown[]) => unknown)(...args);
    target[slot] = call as InputTargetShape[S];
    return () => {
      target[slot] = undefined as InputTargetShape[S];
    };
  }, [target, slot]);
}

export const usePaste = (handler: PasteHandler): void => useHandler('pasteHandler', handler);

export const useMouse = (handler: MouseHandler): void => useHandler('mouseHandler', handler);

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
