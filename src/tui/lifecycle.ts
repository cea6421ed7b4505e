// Moments the whole dashboard goes through that panes react to: suspended with Ctrl-Z and
// brought back (nothing polls while the terminal belongs to the shell), and told to terminate
// by a signal (quit as if asked, so a pending delete is still sent).
import { EventEmitter } from 'node:events';
import { createContext, useContext, useEffect } from 'react';

export type LifecycleEvent = 'suspend' | 'resume' | 'terminate';

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
