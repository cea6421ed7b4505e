// Which lot the holdings panel highlights: the lot it was put on, found by its number however the
// lots changed since (another process adds or removes lots, seen at the next poll), so that `d` and
// `e` act on the lot the eye is on; when that lot itself is gone, the one now in its place.
import type { Lot } from '../../market/holdings.js';

export interface LotHighlight {
  /** The place of the lot highlighted when it was put there. */
  cursor: number;
  /** Its number; undefined while there is no lot. */
  lot: number | undefined;
}

/** The place among `lots` of the lot highlighted. */
export function highlightedPlace(lots: readonly Lot[], at: LotHighlight): number {
  const found = at.lot === undefined ? -1 : lots.findIndex((lot) => lot.number === at.lot);
  return found >= 0 ? found : Math.max(0, Math.min(at.cursor, lots.length - 1));
}

/** The highlight on the lot at `place` (kept within the lots). */
export function highlightOn(lots: readonly Lot[], place: number): LotHighlight {
  const cursor = Math.max(0, Math.min(place, lots.length - 1));
  return { cursor, lot: lots[cursor]?.number };
}
