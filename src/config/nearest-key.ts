// "Did you mean …?" for a misspelt setting: the known key nearest to what was written, when one
// is near enough to be a likely meaning rather than a guess.

/** Case, `_`, `-`, spaces and dots do not tell keys apart here: `baseUrl`, `Base-URL` are base_url. */
const fold = (key: string): string => key.toLowerCase().replace(/[_\-\s.]/g, '');

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`intreval`). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known key `key` most likely stands for, or undefined when none is close. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const folded = fold(key);
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(folded, fold(candidate));
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  if (!best) return undefined;
  // One edit in three letters, at most two: `colour` is colors, `tok` is not token.
  const allowed = Math.min(2, Math.floor(Math.max(folded.length, fold(best.key).length) / 3));
  return best.distance <= allowed ? best.key : undefined;
}
