// The contacts pane's state with its whole-list search kept in step (the index learns of every
// contact the pane reads and of every delete), and the undo window held while the pane cannot be
// seen: the terminal too small, or the dashboard suspended in the shell.
import { useCallback, useEffect, useRef } from 'react';
import type { TickbookClient } from '../../api/client.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { useLifecycle } from '../lifecycle.js';
import { useContactSearch } from '../search/use-contact-search.js';
import type { StatusBoard } from '../state/status.js';
import type { ContactsChange } from './contacts-controller.js';
import { isLoading } from './contacts-state.js';
import { useContacts } from './use-contacts.js';
import type { WriteLedger } from './write-ledger.js';

export interface ContactsPaneOptions {
  client: TickbookClient;
  status: StatusBoard;
  pageRows: number;
  ledger: WriteLedger;
  undoWindowMs: number | undefined;
  /** Where the whole-list search's index is kept, and the name the list is indexed under. */
  history: HistoryService | undefined;
  source: string | undefined;
  /** The terminal is too small to show the panes. */
  hidden: boolean;
}

export function useContactsPane({ client, status, pageRows, ledger, undoWindowMs, history, source, hidden }: ContactsPaneOptions) {
  // The search index keeps up with what the contacts pane reads and changes (the hook comes after).
  const searchChanged = useRef<((change: ContactsChange) => void) | undefined>(undefined);
  const contacts = useContacts(client, status, pageRows, ledger, undoWindowMs, (change) => searchChanged.current?.(change));
  const search = useContactSearch({
    client,
    history,
    source,
    status,
    busy: () => contacts.commands.moving() || isLoading(contacts.getState()),
    hidden: (id) => {
      const s = contacts.getState();
      return s.deleted.has(id) || s.pendingDelete?.contact.id === id || s.batch?.ids.has(id) === true;
    },
  });
  searchChanged.current = search.changed;
  const { holdUndo, releaseUndo } = contacts.commands;
  useEffect(() => {
    if (!hidden) return undefined;
    holdUndo('hidden');
    return () => releaseUndo('hidden');
  }, [hidden, holdUndo, releaseUndo]);
  // Time spent in the shell does not count against an undo: the window has what it had left on fg.
  useLifecycle('suspend', useCallback(() => holdUndo('suspended'), [holdUndo]));
  useLifecycle('resume', useCallback(() => releaseUndo('suspended'), [releaseUndo]));
  return { contacts, search };
}
