/** The first row shown so the cursor stays in view, centred once the list scrolls. */
export function scrollWindow(count: number, cursor: number, rows: number): number {
  return Math.max(0, Math.min(cursor - Math.floor(rows / 2), count - rows));
}
