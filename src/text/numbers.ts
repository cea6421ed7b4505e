// Numbers for narrow columns.

/**
 * The decimals a price is shown with: 2, 4 below 1.00 (as the market data gives them), and below
 * 0.01 enough for 4 significant digits (0.000001234, not 0.0000).
 */
function priceDecimals(price: number): number {
  const size = Math.abs(price);
  if (size >= 1 || size === 0 || !Number.isFinite(size)) return size >= 1 ? 2 : 4;
  if (size >= 0.01) return 4;
  return Math.min(12, 3 - Math.floor(Math.log10(size)));
}

/** The widest a price or change is written in full (the ticker's price column); past it, in exponent form (1.234e-6). */
const PRICE_WIDTH = 9;

const written = (value: number, decimals: number): string => {
  const fixed = value.toFixed(decimals);
  return fixed.length <= PRICE_WIDTH ? fixed : value.toExponential(3);
};

/** Prices with 2 decimals, 4 below 1.00, and 4 significant digits below 0.01. */
export const formatPrice = (price: number): string => written(price, priceDecimals(price));

/** A price change with the decimals of the price it belongs to. */
export const formatChange = (change: number, price: number): string => written(change, priceDecimals(price));

/** 56350348 → "56.4M"; 999950 → "1.0M" (not "1000k"). */
export function compactNumber(value: number): string {
  const units: [number, string][] = [
    [1e3, 'k'],
    [1e6, 'M'],
    [1e9, 'B'],
    [1e12, 'T'],
  ];
  let chosen = -1;
  units.forEach(([size], i) => {
    if (Math.abs(value) >= size) chosen = i;
  });
  if (chosen < 0) return String(value);
  const show = (i: number): string => {
    const scaled = value / units[i]![0];
    return `${scaled.toFixed(Math.abs(scaled) >= 99.95 ? 0 : 1)}${units[i]![1]}`;
  };
  const text = show(chosen);
  return Math.abs(parseFloat(text)) >= 1000 && chosen < units.length - 1 ? show(chosen + 1) : text;
}

/** Seconds as a short age: "4s", "3m", "2h". */
export function shortAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/** A percentage with its sign, never "-0.00%". */
export function signedPercent(value: number): string {
  const text = Math.abs(value).toFixed(2);
  const zero = Number(text) === 0;
  return `${zero ? '±' : value > 0 ? '+' : '-'}${text}%`;
}
