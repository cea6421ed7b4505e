// Where a symbol is listed, from its suffix (the catalogue's convention: SHEL.L, SAP.DE, 7203.T).

const EXCHANGES: Readonly<Record<string, string>> = {
  L: 'London Stock Exchange',
  DE: 'Xetra, Frankfurt',
  PA: 'Euronext Paris',
  T: 'Tokyo Stock Exchange',
  TO: 'Toronto Stock Exchange',
  HK: 'Hong Kong Stock Exchange',
  AX: 'Australian Securities Exchange',
};

/** The exchange a symbol trades on; one without a suffix is a US listing. */
export function listingOf(symbol: string): string {
  const suffix = /\.([A-Z]+)$/.exec(symbol)?.[1];
  if (suffix === undefined) return 'US listing';
  return EXCHANGES[suffix] ?? `listed on .${suffix}`;
}
