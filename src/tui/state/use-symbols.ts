// The symbols catalogue, fetched once per run and kept: the picker searches it and the
// watchlist shows company names from it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TickbookClient } from '../../api/client.js';
import type { SymbolInfo } from '../../api/types.js';
import type { StatusStore } from './status.js';
import { errorText } from './error-text.js';

export function useSymbols(client: TickbookClient, status: StatusStore) {
  const [catalogue, setCatalogue] = useState<readonly SymbolInfo[] | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const loadingRef = useRef(false);

  const load = useCallback(() => {
    if (loadingRef.current) return;
    loadingRef.current = true;
    setLoading(true);
    client.listSymbols().then(
      (symbols) => {
        status.recover('symbols');
        setCatalogue(symbols);
      },
      (error: unknown) => status.fail('symbols', `symbols: ${errorText(error)}`),
    ).finally(() => {
      loadingRef.current = false;
      setLoading(false);
    });
  }, [client, status]);

  useEffect(() => load(), [load]);

  const names = useMemo(() => new Map((catalogue ?? []).map((s) => [s.symbol, s.name])), [catalogue]);
  /** Loads again if the first attempt failed; a loaded catalogue is never fetched twice. */
  const ensure = useCallback(() => {
    if (!catalogue) load();
  }, [catalogue, load]);
  return { catalogue, names, loading, ensure };
}
