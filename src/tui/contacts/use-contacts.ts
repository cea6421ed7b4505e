// The contacts pane's controller in React: made once per dashboard, read through
// useSyncExternalStore (a render sees the state as the controller has it), started and stopped
// with the pane, told the pane's size, and asked to fill the pane whenever what stopped a fill
// may be over.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { TickbookClient } from '../../api/client.js';
import { type ContactsChange, ContactsController } from './contacts-controller.js';
import { isLoading } from './contacts-state.js';
import type { StatusBoard } from '../state/status.js';
import type { WriteLedger } from './write-ledger.js';

export function useContacts(
  client: TickbookClient,
  status: StatusBoard,
  pageSize: number,
  ledger: WriteLedger,
  undoWindowMs?: number,
  /** Told of every contact read or changed here, and every one found gone: the search index keeps up. */
  onChanged?: (change: ContactsChange) => void,
) {
  const [controller] = useState(() => new ContactsController({ client, status, pageSize, ledger, undoWindowMs }));
  controller.onChanged = onChanged;
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  useEffect(() => {
    controller.start();
    return controller.dispose;
  }, [controller]);
  useEffect(() => controller.resize(pageSize), [controller, pageSize]);
  // Once resizing settles, and again whenever what stopped it (a load, a dialog, the open
  // contact) is over.
  const loading = isLoading(state);
  useEffect(() => controller.fillSoon(), [controller, pageSize, loading, state.mode.kind, state.view]);
  return { state, commands: controller, getState: controller.getState };
}
