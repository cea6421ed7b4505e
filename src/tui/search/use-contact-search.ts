// The whole-list search's controller in React: made once per dashboard, read through
// useSyncExternalStore, given what the dashboard passes at every render, and started again when
// the index it keeps (the history file, the list's name) or the client it walks with changes.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { type ContactSearchCommands, ContactSearchController, type ContactSearchOptions } from './contact-search-controller.js';
import type { SearchState } from './search-state.js';

export function useContactSearch(options: ContactSearchOptions): SearchState & ContactSearchCommands {
  const [controller] = useState(() => new ContactSearchController(options));
  controller.setOptions(options);
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const { client, history, source, status } = options;
  useEffect(() => {
    controller.start();
    return controller.dispose;
  }, [controller, client, history, source, status]);
  const { isOpen, current, open, close, edit, move, chosen, placeOf, changed, refresh } = controller;
  return { ...state, isOpen, current, open, close, edit, move, chosen, placeOf, changed, refresh };
}
