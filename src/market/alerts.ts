// Price alerts as plain rules: when an alert fires (its condition becoming true, not being true),
// when it is armed again (after a firing, the price back past its line by a band, so a price
// hovering on the line does not fire every tick; set while its condition held, or when that could
// not be told, the first reading where it does not hold, so that it fires at the next crossing
// seen), and what a one-shot, a pause and a snooze do.

/** What an alert watches for. */
export type AlertCondition =
  /** The price at or above `price`. */
  | { kind: 'above'; price: number }
  /** The price at or below `price`. */
  | { kind: 'below'; price: number }
  /**
   * A move of `percent` from a reference: up when `direction` is 'up', down when 'down', either
   * way when 'either'. The reference is the day's open, a recorded day's close, or the price when
   * the alert was set.
   */
  | { kind: 'move'; percent: number; direction: 'up' | 'down' | 'either'; from: 'open' | 'close' | 'set' }
  /** No new price for `polls` polls in a row. */
  | { kind: 'stale'; polls: number };

export interface AlertState {
  /** Fires when its condition becomes true; false from a firing (or set while it held, or not known to not hold) until armed again. */
  armed: boolean;
  /**
   * While not armed, what arms it: the price back past its line by the band (true: after a
   * firing, or a crossing let pass while snoozed), or only on the other side of the line (false:
   * set while its condition held or could not be told, where the band would let the next
   * crossing pass unfired). The other side of the line is exactly where the condition does not
   * hold (see arms).
   */
  band: boolean;
  /** Not evaluated at all (the user paused it). */
  paused: boolean;
  /** Fires no sooner than this (ms since the epoch); crossings before it are let pass. */
  snoozedUntil: number | undefined;
  /** Fires once, then is done. */
  oneShot: boolean;
  /** A one-shot alert that fired. */
  done: boolean;
}

/** What a tick says of a symbol, for its alerts. */
export interface Reading {
  /** The last price; undefined while none has come. */
  price: number | undefined;
  /** Polls in a row without a new price for the symbol (0 when this poll brought one). */
  pollsWithout: number;
  /** The reference a move alert measures from, when known (the day's open, a close, the price set). */
  reference: number | undefined;
  now: number;
}

/** How far back past its line a price must go to arm an alert again: a quarter of a percent. */
export const REARM_BAND = 0.0025;

/** Whether the condition holds for this reading; undefined when it cannot be told (no price, no reference). */
export function holds(condition: AlertCondition, reading: Reading): boolean | undefined {
  if (condition.kind === 'stale') return reading.pollsWithout >= condition.polls;
  const { price } = reading;
  if (price === undefined) return undefined;
  switch (condition.kind) {
    case 'above':
      return price >= condition.price;
    case 'below':
      return price <= condition.price;
    case 'move': {
      const moved = movePercent(price, reading.reference);
      if (moved === undefined) return undefined;
      if (condition.direction === 'up') return moved >= condition.percent;
      if (condition.direction === 'down') return moved <= -condition.percent;
      return Math.abs(moved) >= condition.percent;
    }
  }
}

/** The change from `reference` in percent, or undefined without a usable reference. */
export function movePercent(price: number, reference: number | undefined): number | undefined {
  if (reference === undefined || !(reference > 0)) return undefined;
  return (price / reference - 1) * 100;
}

/**
 * Each condition's arming lines, worked out once: rounding one costs ~0.5 µs, and a tick asks it
 * of every unarmed alert (conditions are never changed in place: an edit is a new object).
 */
const armingLines = new WeakMap<AlertCondition, { band?: number; line?: number }>();

/**
 * The line an unarmed alert waits for the price to go past before it can fire: the price line
 * itself, or (`band`) moved back by the band; for a move, the percentage. Rounded to 12
 * significant digits, so that 24.50 and 0.25% is 24.56125 as shown, not 24.561249999999998.
 */
function armingLine(condition: Extract<AlertCondition, { kind: 'above' | 'below' | 'move' }>, band: boolean): number {
  let known = armingLines.get(condition);
  if (known === undefined) armingLines.set(condition, (known = {}));
  const kept = band ? known.band : known.line;
  if (kept !== undefined) return kept;
  const exact =
    condition.kind === 'move'
      ? condition.percent - (band ? REARM_BAND * 100 : 0)
      : condition.price * (band ? (condition.kind === 'above' ? 1 - REARM_BAND : 1 + REARM_BAND) : 1);
  const line = Number(exact.toPrecision(12));
  if (band) known.band = line;
  else known.line = line;
  return line;
}

/**
 * Whether the reading arms an unarmed alert: the price past its arming line (below it for an
 * above alert, above it for a below one; for a move, inside it), or for a stale alert a new
 * price. With `band` the line is moved back by the band (after a firing); without, it is the
 * alert's own line, the price merely on its other side (set while its condition held).
 */
export function arms(condition: AlertCondition, reading: Reading, band: boolean): boolean {
  if (condition.kind === 'stale') return band ? reading.pollsWithout === 0 : reading.pollsWithout < condition.polls;
  const { price } = reading;
  if (price === undefined) return false;
  const line = armingLine(condition, band);
  switch (condition.kind) {
    case 'above':
      return price < line;
    case 'below':
      return price > line;
    case 'move': {
      const moved = movePercent(price, reading.reference);
      if (moved === undefined) return false;
      if (condition.direction === 'up') return moved < line;
      if (condition.direction === 'down') return moved > -line;
      return Math.abs(moved) < line;
    }
  }
}

/** A price as the lists show it, with more decimals where those would round it: 24.43875, not 24.44. */
function exactPrice(price: number, formatPrice: (n: number) => string): string {
  const shown = formatPrice(price);
  return Number(shown) === price ? shown : String(price);
}

/**
 * What an unarmed alert waits for before it can fire again, in words: "a price below 199.50" (its
 * line less the band, after a firing), "a price above 24.50" (its own line, set while it held),
 * "a move within ±4.75% from open", "a new price".
 */
export function armingWords(condition: AlertCondition, band: boolean, formatPrice: (n: number) => string): string {
  if (condition.kind === 'stale') return 'a new price';
  const line = armingLine(condition, band);
  switch (condition.kind) {
    case 'above':
      return `a price below ${exactPrice(line, formatPrice)}`;
    case 'below':
      return `a price above ${exactPrice(line, formatPrice)}`;
    case 'move': {
      const signed = (percent: number) => `${percent >= 0 ? '+' : ''}${percent}%`;
      const from = `from ${condition.from}`;
      if (condition.direction === 'up') return `a move below ${signed(line)} ${from}`;
      if (condition.direction === 'down') return `a move above ${signed(-line)} ${from}`;
      // A move either way smaller than the band is never inside the move less the band.
      return line > 0 ? `a move within ±${line}% ${from}` : `nothing: ±${condition.percent}% is inside the 0.25-point band, so it does not fire again`;
    }
  }
}

/** Why it cannot be told whether a new alert's condition holds: no price, or nothing recorded to measure a move from. */
function untold(symbol: string, condition: AlertCondition, price: number | undefined): string {
  if (price === undefined || condition.kind !== 'move') return `the server gave no price for ${symbol}`;
  return condition.from === 'open' ? `nothing of ${symbol} is recorded today to measure from` : `no earlier day of ${symbol} is recorded to measure from`;
}

/**
 * What `alerts add` and the alert form add to "alert 4: …" for a new alert that is not armed
 * (undefined for one that is: its condition does not hold): "it holds now: it waits for a price
 * above 24.50, then fires at the next crossing", or that it cannot be told ("cannot tell if it
 * holds now: nothing of AAPL is recorded today to measure from; it waits for …"). `short` leaves
 * out why it cannot be told and the crossing, to fit the dashboard's status line.
 */
export function whenSetWords(
  symbol: string,
  condition: AlertCondition,
  held: boolean | undefined,
  price: number | undefined,
  formatPrice: (n: number) => string,
  short = false,
): string | undefined {
  if (held === false) return undefined;
  const waits = `it waits for ${armingWords(condition, false, formatPrice)}`;
  if (short) return `${held ? 'it holds now' : 'cannot tell if it holds now'}: ${waits}`;
  const now = held ? 'it holds now:' : `cannot tell if it holds now: ${untold(symbol, condition, price)};`;
  return `${now} ${waits}, then fires at the next crossing`;
}

/**
 * The alert after a reading, and whether it fired. An alert set while its condition already holds
 * (or when that could not be told) is set unarmed (see initialState), armed by the first reading
 * where it does not hold: it fires at the next crossing, not at once, and not only after the band.
 */
export function step(condition: AlertCondition, state: AlertState, reading: Reading): { state: AlertState; fired: boolean } {
  if (state.paused || state.done) return { state, fired: false };
  if (!state.armed) {
    return arms(condition, reading, state.band) ? { state: { ...state, armed: true }, fired: false } : { state, fired: false };
  }
  if (holds(condition, reading) !== true) return { state, fired: false };
  // A crossing while snoozed is let pass; the price must go back past the band before it counts.
  if (state.snoozedUntil !== undefined && reading.now < state.snoozedUntil) return { state: { ...state, armed: false, band: true }, fired: false };
  return { state: { ...state, armed: false, band: true, done: state.oneShot, snoozedUntil: undefined }, fired: true };
}

/**
 * A new alert's state: armed when its condition is known not to hold. When it holds already, or
 * it cannot be told (no price, no reference recorded for a move), it is armed by the first
 * reading where it does not hold (its own line, no band) and fires at the next crossing after:
 * never at the first reading merely because the condition already held when it was set, which
 * an alert armed on not knowing did (a move from the day's open set 6% up fired at the first poll).
 */
export function initialState(condition: AlertCondition, reading: Reading | undefined, oneShot = false): AlertState {
  const armed = reading !== undefined && holds(condition, reading) === false;
  return { armed, band: armed, paused: false, snoozedUntil: undefined, oneShot, done: false };
}

/** "AAPL crossed above 200.00", "AAPL moved -5.2% from the day's open", for the status line and logs. */
export function describeFiring(symbol: string, condition: AlertCondition, reading: Reading, formatPrice: (n: number) => string): string {
  switch (condition.kind) {
    case 'above':
      return `${symbol} at ${formatPrice(reading.price!)} crossed above ${formatPrice(condition.price)}`;
    case 'below':
      return `${symbol} at ${formatPrice(reading.price!)} crossed below ${formatPrice(condition.price)}`;
    case 'move': {
      const moved = movePercent(reading.price!, reading.reference)!;
      const from = { open: "the day's open", close: 'the last close', set: 'the price when set' }[condition.from];
      return `${symbol} at ${formatPrice(reading.price!)} moved ${moved >= 0 ? '+' : ''}${moved.toFixed(2)}% from ${from}`;
    }
    case 'stale':
      return `${symbol} has had no new price for ${reading.pollsWithout} polls`;
  }
}

/** "above 200.00", "move ±5% from open", "no price for 3 polls": a condition in a list. */
export function describeCondition(condition: AlertCondition, formatPrice: (n: number) => string): string {
  switch (condition.kind) {
    case 'above':
      return `above ${formatPrice(condition.price)}`;
    case 'below':
      return `below ${formatPrice(condition.price)}`;
    case 'move':
      return `move ${{ up: '+', down: '-', either: '±' }[condition.direction]}${condition.percent}% from ${condition.from}`;
    case 'stale':
      return `no price for ${condition.polls} poll${condition.polls === 1 ? '' : 's'}`;
  }
}
