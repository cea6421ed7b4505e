// The symbol catalogue ships as a TSV data file beside this module (copied into dist/ by the
// build), so it can be edited and reviewed as data rather than code.
import { readFileSync } from 'node:fs';

export interface Listing {
  symbol: string;
  name: string;
  /** A plausible recent price in the listing's currency: where the simulator starts. */
  basePrice: number;
  /** A plausible average daily volume: what the simulator's day adds up to. */
  averageVolume: number;
}

const dataFile = new URL('./data/symbols.tsv', import.meta.url);

export function parseCatalogue(text: string): Listing[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const listings: Listing[] = [];
  for (const line of lines.slice(1)) {
    const [symbol, name, price, volume] = line.split('\t');
    const basePrice = Number(price);
    const averageVolume = Number(volume);
    if (!symbol || !name || !(basePrice > 0) || !(averageVolume > 0)) {
      throw new Error(`symbols.tsv: malformed line: ${JSON.stringify(line)}`);
    }
    listings.push({ symbol, name, basePrice, averageVolume });
  }
  return listings;
}

let cached: readonly Listing[] | undefined;

/** The whole catalogue, read once per process. */
export function loadCatalogue(): readonly Listing[] {
  cached ??= Object.freeze(parseCatalogue(readFileSync(dataFile, 'utf8')));
  return cached;
}
