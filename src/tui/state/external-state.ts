// useReducer, plus a getter for the latest state: commands that dispatch and then call the
// client read what they just decided, not what the last render saw.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';

export function useLatestReducer<S, A>(reducer: (state: S, action: A) => S, initial: () => S) {
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

/**
 * A reducer's state kept outside React, for state that changes often and is shown in one place:
 * only the components that select from it are drawn again when it changes, not whoever owns it
 * (the ticker's prices, each second, redraw the ticker pane, not the dashboard).
 */
export class ExternalState<S, A> {
  #state: S;
  readonly #listeners = new Set<() => void>();
  readonly #reducer: (state: S, action: A) => S;

  constructor(reducer: (state: S, action: A) => S, initial: S) {
    this.#reducer = reducer;
    this.#state = initial;
  }

  readonly getState = (): S => this.#state;

  readonly dispatch = (action: A): void => {
    const next = this.#reducer(this.#state, action);
    if (next === this.#state) return;
    this.#state = next;
    for (const listener of this.#listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
}

/** A value kept outside React and set whole (an ExternalState whose every action is the next value). */
export const externalValue = <S>(initial: S): ExternalState<S, S> => new ExternalState<S, S>((_, next) => next, initial);

/** What a component may do with an ExternalState: read it and be told of changes, not change it. */
export type Selectable<S> = Pick<ExternalState<S, never>, 'getState' | 'subscribe'>;

/** The selection of the whole state: drawn again at every change. */
export const wholeState = <S>(state: S): S => state;

/**
 * What `select` picks from the state, drawn again only when that changes (by identity): the
 * reducer keeps what an action leaves alone, so a selection of it holds still.
 *
 * Redrawn by a state update from a subscription, as the ticker's state was drawn when it was
 * React state: its frames are scheduled as they were before it left React.
 */
export function useSelected<S, T>(source: Selectable<S>, select: (state: S) => T): T {
  const value = select(source.getState());
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const latest = useRef({ select, value });
  latest.current = { select, value };
  useEffect(() => {
    const check = () => {
      const { select: pick, value: shown } = latest.current;
      if (!Object.is(pick(source.getState()), shown)) redraw();
    };
    // A change between this render and now is not missed.
    check();
    return source.subscribe(check);
  }, [source]);
  return value;
}
