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
