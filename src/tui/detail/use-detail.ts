// The open symbol's controller in React: made once per dashboard and read through
// useSyncExternalStore (a render sees the symbol and span as the controller has them).
import { useState, useSyncExternalStore } from 'react';
import { type DetailCommands, DetailController, type DetailState } from './detail-controller.js';

export function useDetail(): { state: DetailState | undefined } & DetailCommands {
  const [controller] = useState(() => new DetailController());
  const state = useSyncExternalStore(controller.subscribe, controller.current);
  const { current, open, close, span, stepSpan, stepSymbol } = controller;
  return { state, current, open, close, span, stepSpan, stepSymbol };
}
