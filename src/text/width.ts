// Column widths as a terminal draws them: CJK and emoji take two columns, combining marks none.
import stringWidth from './string-width-memo.js';

export const width = (text: string): number => stringWidth(text);

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** What ends cut text where the terminal draws Unicode; "..." where it cannot (src/tui/style/glyphs.ts). */
export const ELLIPSIS = '…';

/** Cuts text to at most `columns` columns, ending with the ellipsis when anything was cut. */
export function truncate(text: string, columns: number, ellipsis: string = ELLIPSIS): string {
  if (columns <= 0) return '';
  if (width(text) <= columns) return text;
  // Too narrow for the whole ellipsis: as much of it as fits.
  const end = width(ellipsis) < columns ? ellipsis : ellipsis.slice(0, 1);
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = width(segment);
    if (used + w > columns - width(end)) break;
    out += segment;
    used += w;
  }
  return `${out}${end}`;
}

/**
 * `head` cut to leave room for `tail`, then `tail`, in at most `columns` columns: what must stay
 * in view (a question's mark, a countdown) is never the part cut off for a long name.
 */
export function truncateKeeping(head: string, tail: string, columns: number, ellipsis: string = ELLIPSIS): string {
  const room = columns - width(tail);
  if (room <= width(ellipsis)) return truncate(`${head}${tail}`, columns, ellipsis);
  return `${truncate(head, room, ellipsis)}${tail}`;
}

/** Pads (or cuts) text to exactly `columns` columns. */
export function fit(text: string, columns: number, align: 'left' | 'right' = 'left', ellipsis: string = ELLIPSIS): string {
  const cut = truncate(text, columns, ellipsis);
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
 * Whole entries joined by the separator (" · ") in at most `columns` columns. When they do not all fit, the
 * least important go first: an entry is never cut in half, except the last one left, when even
 * it alone does not fit.
 */
export function fitEntries(entries: readonly Entry[], columns: number, separator = ' · ', ellipsis: string = ELLIPSIS): string {
  const join = (kept: readonly Entry[]) => kept.map((entry) => entry.text).join(separator);
  return truncate(join(dropToFit(entries, (kept) => width(join(kept)) <= columns, 1)), columns, ellipsis);
}
