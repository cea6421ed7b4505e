// A cache that keeps what the last frame used and what this frame uses, nothing older. What a
// frame can reuse is what the frame before drew: a watch window's rows change every second, so
// a cache bounded by count alone (quick-lru) fills up with prices, ages and times long gone.
// Measured: 2 x 2,000 lines of Ink's styled characters (~300 bytes a cell) held 70-90 MB of
// heap after eight hours of ticks at 20x; two frames' worth is a few screens of cells.

/** Entries one frame may add at most: far above a screen's lines, a cap should something draw without end. */
export const FRAME_CACHE_LIMIT = 4096;

export class FrameCache<K, V> {
  #current = new Map<K, V>();
  #previous = new Map<K, V>();

  /** The value this frame or the last one kept for `key`; one the last frame kept is kept for this one too. */
  get(key: K): V | undefined {
    const value = this.#current.get(key);
    if (value !== undefined) return value;
    const kept = this.#previous.get(key);
    if (kept !== undefined) this.set(key, kept);
    return kept;
  }

  set(key: K, value: V): void {
    if (this.#current.size < FRAME_CACHE_LIMIT) this.#current.set(key, value);
  }

  /** A new frame starts: what the frame before last used and this one did not is let go. */
  nextFrame(): void {
    this.#previous = this.#current;
    this.#current = new Map();
  }

  /** Entries held now, both frames (for the test of the bound). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }
}
