// useReducer, plus a getter for the latest state: commands that dispatch and then call the
// client read what they just decided, not what the last render saw.
import { useCallback, useRef, useState } from 'react';

export function useStore<S, A>(reducer: (state: S, action: A) => S, initial: () => S) {
  const ref = useRef<S | undefined>(undefined);
  ref.current ??= initial();
  const [state, setState] = useState<S>(ref.current);
  const dispatch = useCallback(
    (action: A) => {
      ref.current = reducer(ref.current!, action);
      setState(ref.current);
    },
    [reducer],
  );
  const getState = useCallback(() => ref.current!, []);
  return [state, dispatch, getState] as const;
}

const replaced = <S>(_: S, next: S): S => next;

/** A value set whole, with a getter for the latest (useStore whose every action is the next state). */
export function useLatest<S>(initial: S) {
  return useStore<S, S>(replaced, () => initial);
}
