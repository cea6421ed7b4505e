// Column widths as a terminal draws them: CJK and emoji take two columns, combining marks none.
import stringWidth from 'string-width';

export const width = (text: string): number => stringWidth(text);

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts text to at most `columns` columns, ending with "…" when anything was cut. */
export function truncate(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (width(text) <= columns) return text;
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = width(segment);
    if (used + w > columns - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** Pads (or cuts) text to exactly `columns` columns. */
export function fit(text: string, columns: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(text, columns);
  const pad = ' '.repeat(Math.max(0, columns - width(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

export interface Entry {
  text: string;
  /** Higher is less important: dropped first when the line is too narrow (default 0). */
  rank?: number;
}

/**
 * The entries that fit: while `fits` says no, the least important goes (the highest rank; among
 * equals, the later one). Never more than `keep` are dropped below (1: the most important stays).
 */
export function dropToFit<E extends Entry>(entries: readonly E[], fits: (kept: readonly E[]) => boolean, keep = 0): E[] {
  const kept = entries.filter((entry) => entry.text !== '');
  while (kept.length > keep && !fits(kept)) {
    let drop = 0;
    kept.forEach((entry, i) => {
      if ((entry.rank ?? 0) >= (kept[drop]!.rank ?? 0)) drop = i;
    });
    kept.splice(drop, 1);
  }
  return kept;
}

/**
 * Whole entries joined by " · " in at most `columns` columns. When they do not all fit, the
 * least important go first: an entry is never cut in half, except the last one left, when even
 * it alone does not fit.
 */
export function fitEntries(entries: readonly Entry[], columns: number): string {
  const join = (kept: readonly Entry[]) => kept.map((entry) => entry.text).join(' · ');
  return truncate(join(dropToFit(entries, (kept) => width(join(kept)) <= columns, 1)), columns);
}
