// The symbols catalogue, fetched once per run and kept: the picker searches it and the
// watchlist shows company names from it. A load that fails in a way that may pass (the server
// not up yet, a timeout, a 5xx, a 429) is tried again by itself, less and less often, so its
// error in the status line goes once the catalogue comes.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TickbookClient } from '../../api/client.js';
import type { SymbolInfo } from '../../api/types.js';
import type { StatusBoard } from '../state/status.js';
import { errorText } from '../state/error-text.js';
import { isTransient, retryDelayMs } from '../../api/retry.js';

/** The longest wait between tries of a catalogue that did not come. */
const RETRY_MAX_MS = 60_000;

export function useSymbols(client: TickbookClient, status: StatusBoard) {
  const [catalogue, setCatalogue] = useState<readonly SymbolInfo[] | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const loadingRef = useRef(false);
  const retryTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const retries = useRef(0);
  const mounted = useRef(true);

  const load = useCallback(() => {
    if (loadingRef.current) return;
    clearTimeout(retryTimer.current);
    loadingRef.current = true;
    setLoading(true);
    client.listSymbols().then(
      (symbols) => {
        status.recover('symbols');
        setCatalogue(symbols);
      },
      (error: unknown) => {
        const transient = isTransient(error);
        const delay = retryDelayMs(error, retries.current++, RETRY_MAX_MS);
        status.fail('symbols', `symbols: ${errorText(error)}`, transient ? Date.now() + delay : undefined, error);
        if (transient && mounted.current) retryTimer.current = setTimeout(() => loadRef.current(), delay);
      },
    ).finally(() => {
      loadingRef.current = false;
      setLoading(false);
    });
  }, [client, status]);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    mounted.current = true;
    load();
    return () => {
      mounted.current = false;
      clearTimeout(retryTimer.current);
    };
  }, [load]);

  const names = useMemo(() => new Map((catalogue ?? []).map((s) => [s.symbol, s.name])), [catalogue]);
  /** Loads again at once if it failed; a loaded catalogue is never fetched twice. */
  const ensure = useCallback(() => {
    if (!catalogue) load();
  }, [catalogue, load]);
  return { catalogue, names, loading, ensure };
}
