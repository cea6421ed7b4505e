// Where a symbol is listed, from its suffix (the catalogue's convention: SHEL.L, SAP.DE, 7203.T):
// one table for the picker's short badge and the detail view's exchange name.

const EXCHANGES: Readonly<Record<string, { badge: string; name: string }>> = {
  L: { badge: 'LSE', name: 'London Stock Exchange' },
  TO: { badge: 'TSX', name: 'Toronto Stock Exchange' },
  DE: { badge: 'XETRA', name: 'Xetra, Frankfurt' },
  PA: { badge: 'PARIS', name: 'Euronext Paris' },
  T: { badge: 'TOKYO', name: 'Tokyo Stock Exchange' },
  HK: { badge: 'HKEX', name: 'Hong Kong Stock Exchange' },
  AX: { badge: 'ASX', name: 'Australian Securities Exchange' },
};

/** The exchange a symbol's suffix names, for its badge: "VOD.L" → "LSE"; none for US listings. */
export function exchangeBadge(symbol: string): string | undefined {
  const dot = symbol.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const suffix = symbol.slice(dot + 1);
  return EXCHANGES[suffix]?.badge ?? suffix;
}

/** The exchange a symbol trades on; one without a suffix is a US listing. */
export function listingOf(symbol: string): string {
  const suffix = /\.([A-Z]+)$/.exec(symbol)?.[1];
  if (suffix === undefined) return 'US listing';
  return EXCHANGES[suffix]?.name ?? `listed on .${suffix}`;
}
