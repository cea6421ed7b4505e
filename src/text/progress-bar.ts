// A progress bar of `width` cells as text: block characters where they can be drawn, ASCII
// where they cannot.

export function progressBar(done: number, total: number, width: number, unicode: boolean): string {
  const filled = Math.max(0, Math.min(width, Math.round((done / Math.max(1, total)) * width)));
  return unicode ? `▕${'█'.repeat(filled)}${' '.repeat(width - filled)}▏` : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}
