// The ticker pane described for a screen reader: the list shown and the symbol selected, said in
// words with its price when the selection moves (and not at every tick), and what opens over the
// list: the symbol picker, the watchlists menu, the columns editor, a symbol's lots.
import type { SymbolInfo } from '../../api/types.js';
import type { Lot } from '../../market/holdings.js';
import { fixedText } from '../../market/money.js';
import type { ColumnName } from '../../market/watchlists.js';
import { sanitize } from '../../text/sanitize.js';
import type { HoldingsEditor } from '../holdings/holdings-state.js';
import { highlightedPlace } from '../holdings/lot-highlight.js';
import type { ListsMenu } from '../lists/lists-controller.js';
import { editorRows } from '../ticker/columns-editor-controller.js';
import { SORT_LABEL } from '../ticker/sort-label.js';
import type { PickerState } from '../ticker/picker-state.js';
import { displayOrder, type TickerState } from '../ticker/ticker-state.js';
import type { ReaderScreen, Said } from './reader-screen.js';
import { amountWords, countWords, placeWords, priceWords } from './spoken-words.js';

export interface TickerParts {
  ticker: TickerState;
  names: ReadonlyMap<string, string>;
  picker: PickerState & { matches: readonly SymbolInfo[] | undefined };
  lists: ListsMenu;
  columnsCursor: number | undefined;
  holdings: HoldingsEditor;
  lotsOf: (symbol: string) => Lot[];
  /** Money hidden ($): a lot's quantity and cost are not said either. */
  moneyHidden: boolean;
}


const COLUMN_WORDS: Record<ColumnName, string> = {
  name: 'company name',
  price: 'price',
  change: 'change since the last price',
  session: 'change this session',
  volume: 'volume',
  trend: 'trend',
  age: 'age of the price',
  qty: 'quantity held',
  value: 'value held',
  day_pl: 'profit or loss today',
  pl: 'profit or loss',
  pl_pct: 'profit or loss in percent',
};

const LOT_LABELS = { quantity: 'Quantity', cost: 'Cost per share', date: 'Date bought, year-month-day, optional' } as const;

/** `symbol`'s price in words, or why there is none. */
function symbolPriceWords(ticker: TickerState, symbol: string, names?: ReadonlyMap<string, string>): string {
  const why = ticker.unknown.has(symbol) ? 'not known to the server' : ticker.rejected.has(symbol) ? `no price: ${sanitize(ticker.rejected.get(symbol)!)}` : undefined;
  return priceWords(symbol, ticker.rows[symbol], why, names?.get(symbol));
}

/** The selected price as the reader's clock reads it: said again when the symbol or its price changed. */
export function selectedPrice(ticker: TickerState, names?: ReadonlyMap<string, string>): Said | undefined {
  const symbol = displayOrder(ticker)[ticker.cursor];
  return symbol === undefined ? undefined : { key: `${symbol} ${ticker.rows[symbol]?.price}`, words: symbolPriceWords(ticker, symbol, names) };
}

const lotWords = (lot: Lot, symbol: string, moneyHidden: boolean): string =>
  moneyHidden
    ? `lot ${lot.number}, amounts hidden`
    : `lot ${lot.number}, ${fixedText(lot.quantity)} at ${amountWords(fixedText(lot.cost), symbol)}${lot.bought ? `, bought ${lot.bought}` : ''}`;

export function describeTicker({ ticker, names, picker, lists, columnsCursor, holdings, lotsOf, moneyHidden }: TickerParts): ReaderScreen {
  const list = ticker.lists[ticker.active]!;
  const none = { body: undefined, selected: undefined, field: undefined, facts: {} };
  if (picker.open) {
    const matches = picker.matches ?? [];
    const match = picker.chosen ? matches[picker.cursor] : undefined;
    return {
      ...none,
      place: `Add a symbol to ${sanitize(list.name)}`,
      facts: { matches: picker.query.value.trim() !== '' && matches.length === 0 ? 'no match' : undefined },
      selected: match && { key: `match ${match.symbol}`, words: `${sanitize(match.symbol)}, ${sanitize(match.name)}, match ${placeWords(picker.cursor, matches.length)}` },
      field: { key: 'picker', prompt: 'Type a symbol or company name. Down arrow goes through the matches, Enter adds, Escape closes.', text: picker.query },
    };
  }
  if (columnsCursor !== undefined) {
    const rows = editorRows(list.columns);
    const column = rows[columnsCursor];
    return {
      ...none,
      place: `Columns of ${sanitize(list.name)}. Space shows or hides, capital J and K move, Escape closes.`,
      selected: column && {
        key: `column ${column} ${list.columns.indexOf(column)}`,
        words: `${COLUMN_WORDS[column]}, ${list.columns.includes(column) ? 'shown' : 'hidden'}, ${placeWords(columnsCursor, rows.length)}`,
      },
    };
  }
  if (holdings.open) {
    const { symbol, form } = holdings;
    const lots = lotsOf(symbol);
    if (form) {
      const problem = form.problems[form.field];
      return {
        ...none,
        place: `${form.editing === undefined ? 'New lot' : `Lot ${form.editing}`} of ${sanitize(symbol)}. Tab goes to the next field, Enter saves, Escape cancels.`,
        facts: { problem: problem && form.tried ? `${LOT_LABELS[form.field]}: ${problem}` : undefined },
        field: { key: `lot ${form.field}`, prompt: LOT_LABELS[form.field], text: { value: form.values[form.field], cursor: form.cursor } },
      };
    }
    const place = highlightedPlace(lots, holdings);
    const lot = lots[place];
    if (holdings.confirmDelete && lot) return { ...none, place: `Delete lot ${lot.number} of ${sanitize(symbol)}? y deletes, n keeps.` };
    return {
      ...none,
      place: `Lots of ${sanitize(symbol)}, ${countWords(lots.length, 'lot')}. a adds, e edits, d deletes, Escape closes.`,
      selected: lot && { key: `lot ${lot.number}`, words: `${lotWords(lot, symbol, moneyHidden)}, ${placeWords(place, lots.length)}` },
    };
  }
  if (lists.open) {
    const chosen = ticker.lists[lists.cursor];
    if (lists.name) {
      const prompt = lists.name.kind === 'create' ? 'Name of the new list' : `New name for ${sanitize(chosen?.name ?? 'the list')}`;
      return {
        ...none,
        place: 'Watchlists',
        facts: { problem: lists.name.problem },
        field: { key: `list name ${lists.name.kind}`, prompt: `${prompt}. Enter saves, Escape cancels.`, text: lists.name.draft },
      };
    }
    if (lists.confirmDelete && chosen) return { ...none, place: `Delete the list ${sanitize(chosen.name)}? y deletes, n keeps.` };
    const purpose = lists.purpose.kind === 'move' ? `Move ${sanitize(lists.purpose.symbol)} to which list? Enter moves it` : 'Watchlists. Enter shows the list';
    return {
      ...none,
      place: `${purpose}; c makes a list, e renames, d deletes, Escape closes.`,
      selected: chosen && {
        key: `list ${lists.cursor} ${chosen.name}`,
        words: `${sanitize(chosen.name)}, ${countWords(chosen.symbols.length, 'symbol')}${lists.cursor === ticker.active ? ', shown now' : ''}, ${placeWords(lists.cursor, ticker.lists.length)}`,
      },
    };
  }
  const order = displayOrder(ticker);
  const symbol = order[ticker.cursor];
  return {
    ...none,
    place: `Ticker, list ${sanitize(list.name)}, ${SORT_LABEL[ticker.sort][ticker.descending ? 1 : 0]}${ticker.paused ? ', paused' : ''}${order.length === 0 ? ', empty: slash adds a symbol' : ''}`,
    // Its place in the key: a symbol moved (J, K) is said where it now is.
    selected: symbol === undefined ? undefined : { key: `symbol ${symbol} ${ticker.cursor}`, words: `${symbolPriceWords(ticker, symbol, names)}, ${placeWords(ticker.cursor, order.length)}` },
  };
}

/** Every symbol of the list shown with its price, a line each, as L reads the pane. */
export function tickerRows(ticker: TickerState, names: ReadonlyMap<string, string>): string[] {
  const order = displayOrder(ticker);
  if (order.length === 0) return ['the list is empty'];
  return order.map((symbol, i) => `${placeWords(i, order.length)}: ${symbolPriceWords(ticker, symbol, names)}`);
}
