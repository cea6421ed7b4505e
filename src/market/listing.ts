// Where a symbol is listed, from its suffix (the catalogue's convention: SHEL.L, SAP.DE, 7203.T):
// one table for the picker's short badge, the detail view's exchange name and the currency a
// holding's value is counted in.

/**
 * A listing's currency: its ISO code, the decimals of its minor unit, and whether prices are
 * quoted in that minor unit (London quotes in pence: 250 means £2.50).
 */
export interface Currency {
  code: string;
  minorDigits: number;
  pricedInMinor: boolean;
}

const major = (code: string, minorDigits = 2): Currency => ({ code, minorDigits, pricedInMinor: false });

const EXCHANGES: Readonly<Record<string, { badge: string; name: string; currency: Currency }>> = {
  L: { badge: 'LSE', name: 'London Stock Exchange', currency: { code: 'GBP', minorDigits: 2, pricedInMinor: true } },
  TO: { badge: 'TSX', name: 'Toronto Stock Exchange', currency: major('CAD') },
  DE: { badge: 'XETRA', name: 'Xetra, Frankfurt', currency: major('EUR') },
  PA: { badge: 'PARIS', name: 'Euronext Paris', currency: major('EUR') },
  T: { badge: 'TOKYO', name: 'Tokyo Stock Exchange', currency: major('JPY', 0) },
  HK: { badge: 'HKEX', name: 'Hong Kong Stock Exchange', currency: major('HKD') },
  AX: { badge: 'ASX', name: 'Australian Securities Exchange', currency: major('AUD') },
};

const US_DOLLAR = major('USD');

/**
 * The currency a symbol's prices are in, from its suffix: none is a US listing, in dollars. An
 * exchange not in the table keeps its suffix as its code (".XX"), so that it is never added to
 * another currency's total.
 */
export function currencyOf(symbol: string): Currency {
  const suffix = /\.([A-Z]+)$/.exec(symbol)?.[1];
  if (suffix === undefined) return US_DOLLAR;
  return EXCHANGES[suffix]?.currency ?? major(`.${suffix}`);
}

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
