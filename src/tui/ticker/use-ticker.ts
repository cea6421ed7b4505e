// The ticker's controller in React: made once per dashboard, started and stopped with it and with
// the terminal (suspended while the shell has it), given the owner's callbacks at each render.
// The owner reads only the interval from its state: a poll draws the panes that select from it
// (LiveTickerPane), not the owner.
import { useEffect, useState } from 'react';
import type { TickbookClient } from '../../api/client.js';
import { useLifecycle } from '../lifecycle.js';
import type { StatusBoard } from '../state/status.js';
import { type Selectable, useSelected } from '../state/external-state.js';
import { TickerController, type TickerOptions } from './ticker-controller.js';
import type { TickerState } from './ticker-state.js';

export function useTicker(client: TickbookClient, status: StatusBoard, options: TickerOptions) {
  const [controller] = useState(() => new TickerController(client, status, options));
  controller.setCallbacks(options);
  useEffect(() => {
    controller.start();
    return controller.dispose;
  }, [controller]);
  useLifecycle('suspend', controller.suspend);
  useLifecycle('resume', controller.resume);
  const intervalS = useSelected(controller, (s) => s.intervalS);
  const live: Selectable<TickerState> = controller;
  return { live, commands: controller, getState: controller.getState, intervalS };
}
