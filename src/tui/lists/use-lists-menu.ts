// The watchlists menu's controller in React: made once per dashboard, told its owner at each
// render, and read through useSyncExternalStore (a render sees the menu as the controller has it).
import { useState, useSyncExternalStore } from 'react';
import type { StatusBoard } from '../state/status.js';
import { ListsController, type ListsOwner } from './lists-controller.js';

export function useListsMenu(owner: ListsOwner, status: StatusBoard) {
  const [controller] = useState(() => new ListsController(owner, status));
  controller.owner = owner;
  const menu = useSyncExternalStore(controller.subscribe, controller.getState);
  return { menu, commands: controller };
}
