// The holdings editor's controller in React: made once per dashboard, told the owner at each
// render, and read through useSyncExternalStore (a render sees the editor as the controller has it).
import { useState, useSyncExternalStore } from 'react';
import type { StatusBoard } from '../state/status.js';
import { type HoldingsCommands, HoldingsController, type HoldingsOwner } from './holdings-controller.js';
import type { HoldingsEditor } from './holdings-state.js';

export function useHoldingsEditor(owner: HoldingsOwner, status: StatusBoard): { editor: HoldingsEditor; version: number } & HoldingsCommands {
  const [controller] = useState(() => new HoldingsController({ owner, status }));
  controller.owner = owner;
  const { view: editor, version } = useSyncExternalStore(controller.subscribe, controller.getState);
  const { isOpen, current, open, close, move, add, edit, editField, moveField, cancelForm, submit, askDelete, confirmDelete, keep, lots } = controller;
  return { editor, version, isOpen, current, open, close, move, add, edit, editField, moveField, cancelForm, submit, askDelete, confirmDelete, keep, lots };
}
