// The symbol picker: what is typed, which match is highlighted, and how the catalogue is ranked:
// symbol prefix first, then words of the company name, then a fuzzy match.
import type { SymbolInfo } from '../../api/types.js';
import { EMPTY_FIELD, fieldInput, type FieldInput, type FieldText } from '../state/field-text.js';

export interface PickerState {
  open: boolean;
  /** What is typed, with its cursor. */
  query: FieldText;
  /** The match highlighted. */
  cursor: number;
  /**
   * The user has pointed at something: typed a query or moved the highlight. Until then the
   * highlight is only the catalogue's first entry, and Enter adds nothing.
   */
  chosen: boolean;
}

export type PickerAction =
  | { type: 'opened' }
  | { type: 'closed' }
  /**
   * The highlighted match went on the watchlist: a query typed is emptied for the next one; with
   * none (the whole list walked with the arrows) the highlight stays on the symbol just added.
   */
  | { type: 'added' }
  | { type: 'query-edited'; input: FieldInput }
  | { type: 'cursor-moved'; by: number; count: number };

export const initialPickerState: PickerState = { open: false, query: EMPTY_FIELD, cursor: 0, chosen: false };

export function pickerReducer(state: PickerState, action: PickerAction): PickerState {
  switch (action.type) {
    case 'opened':
      return { open: true, query: EMPTY_FIELD, cursor: 0, chosen: false };
    case 'closed':
      return { ...state, open: false };
    case 'added':
      return state.query.value === '' ? state : { ...state, query: EMPTY_FIELD, cursor: 0, chosen: false };
    case 'query-edited': {
      const query = fieldInput(state.query, action.input);
      if (query === state.query) return state;
      // Only a change of text ranks the matches afresh; the cursor stepping through it does not.
      return query.value === state.query.value ? { ...state, query } : { ...state, query, cursor: 0, chosen: query.value.trim() !== '' };
    }
    case 'cursor-moved': {
      const cursor = Math.max(0, Math.min(action.count - 1, state.cursor + action.by));
      const chosen = action.count > 0;
      // Nothing moved (↓ on the last match): the same state, so nothing is drawn again.
      return cursor === state.cursor && chosen === state.chosen ? state : { ...state, cursor, chosen };
    }
  }
}

/**
 * The tightest window of `haystack` holding every character of `needle` in order, as its width
 * beyond the needle's own length (0: the needle appears as is); undefined when there is none.
 */
function subsequence(needle: string, haystack: string): number | undefined {
  let best: number | undefined;
  for (let start = haystack.indexOf(needle[0] ?? ''); start >= 0; start = haystack.indexOf(needle[0]!, start + 1)) {
    let at = start;
    let found = true;
    for (const char of needle.slice(1)) {
      at = haystack.indexOf(char, at + 1);
      if (at < 0) {
        found = false;
        break;
      }
    }
    if (!found) break;
    const gaps = at - start + 1 - needle.length;
    if (best === undefined || gaps < best) best = gaps;
  }
  return best;
}

/** A fuzzy match may skip this many characters in all: more, and it is noise, not a match. */
const FUZZY_GAPS = 3;

/** The catalogue ranked for a query: exact symbol, symbol prefix, name word prefix, fuzzy. */
export function rankSymbols(catalogue: readonly SymbolInfo[], query: string): SymbolInfo[] {
  const q = query.trim();
  if (q === '') return [...catalogue].sort((a, b) => a.symbol.localeCompare(b.symbol));
  const upper = q.toUpperCase();
  const lower = q.toLowerCase();
  const scored: { info: SymbolInfo; tier: number; score: number }[] = [];
  for (const info of catalogue) {
    const name = info.name.toLowerCase();
    let tier: number | undefined;
    let score = info.symbol.length;
    if (info.symbol === upper) tier = 0;
    else if (info.symbol.startsWith(upper)) tier = 1;
    else if (name.split(/[\s,.&()'-]+/).some((word) => word.startsWith(lower))) {
      tier = 2;
      score = name.indexOf(lower) >= 0 ? name.indexOf(lower) : name.length;
    } else {
      const spread = subsequence(lower, `${info.symbol.toLowerCase()} ${name}`);
      if (spread !== undefined && spread <= FUZZY_GAPS) {
        tier = 3;
        score = spread;
      }
    }
    if (tier !== undefined) scored.push({ info, tier, score });
  }
  scored.sort((a, b) => a.tier - b.tier || a.score - b.score || a.info.symbol.localeCompare(b.info.symbol));
  return scored.map((s) => s.info);
}
