// The columns editor's controller in React: made once per dashboard, told its owner at each
// render, and read through useSyncExternalStore (a render sees the highlight as the controller has it).
import { useState, useSyncExternalStore } from 'react';
import type { StatusBoard } from '../state/status.js';
import { ColumnsEditorController, type ColumnsOwner } from './columns-editor-controller.js';

export function useColumnsEditor(owner: ColumnsOwner, status: StatusBoard) {
  const [controller] = useState(() => new ColumnsEditorController(owner, status));
  controller.owner = owner;
  const cursor = useSyncExternalStore(controller.subscribe, controller.getState);
  return { cursor, commands: controller };
}
