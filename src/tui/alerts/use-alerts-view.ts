// The alerts view's controller in React: made once per dashboard, told the owner at each render,
// and read through useSyncExternalStore (a render sees the view as the controller has it).
import { useState, useSyncExternalStore } from 'react';
import type { StatusBoard } from '../state/status.js';
import { type AlertsCommands, AlertsController, type AlertsOwner } from './alerts-controller.js';
import type { AlertsView } from './alerts-state.js';

export function useAlertsView(owner: AlertsOwner, status: StatusBoard, now?: () => number): { view: AlertsView; version: number } & AlertsCommands {
  const [controller] = useState(() => new AlertsController({ owner, status, now }));
  controller.owner = owner;
  const { view, version } = useSyncExternalStore(controller.subscribe, controller.getState);
  const { isOpen, current, open, close, newAlert, edit, editField, moveField, cancelForm, submit, move, toggleSection, pause, snooze, wake, askDelete, confirmDelete, keep } = controller;
  return { view, version, isOpen, current, open, close, newAlert, edit, editField, moveField, cancelForm, submit, move, toggleSection, pause, snooze, wake, askDelete, confirmDelete, keep };
}
