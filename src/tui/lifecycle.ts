// Moments the whole dashboard goes through that panes react to: suspended with Ctrl-Z and
// brought back (nothing polls, and no undo window runs out, while the terminal belongs to the
// shell). Signals that end it are run.tsx's: it sends what is pending whatever React's state.
import { EventEmitter } from 'node:events';
import { createContext, useContext, useEffect } from 'react';

export type LifecycleEvent = 'suspend' | 'resume';

export class Lifecycle extends EventEmitter<Record<LifecycleEvent, []>> {}

export const LifecycleContext = createContext<Lifecycle>(new Lifecycle());

export function useLifecycle(event: LifecycleEvent, handler: () => void): void {
  const lifecycle = useContext(LifecycleContext);
  useEffect(() => {
    lifecycle.on(event, handler);
    return () => {
      lifecycle.off(event, handler);
    };
  }, [lifecycle, event, handler]);
}
