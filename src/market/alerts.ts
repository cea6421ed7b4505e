// Price alerts as plain rules: when an alert fires (its condition becoming true, not being true),
// when it is armed again (the price back past its line by a band, so a price hovering on the line
// does not fire every tick), and what a one-shot, a pause and a snooze do.

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
  /** Fires when its condition becomes true; false from a firing until the band re-arms it. */
  armed: boolean;
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
 * Whether the price is far enough back from the line to arm the alert again: past it by the band
 * for a price line, within the move less the band for a move, and a new price for a stale alert.
 */
export function rearms(condition: AlertCondition, reading: Reading): boolean {
  if (condition.kind === 'stale') return reading.pollsWithout === 0;
  const { price } = reading;
  if (price === undefined) return false;
  switch (condition.kind) {
    case 'above':
      return price < condition.price * (1 - REARM_BAND);
    case 'below':
      return price > condition.price * (1 + REARM_BAND);
    case 'move': {
      const moved = movePercent(price, reading.reference);
      if (moved === undefined) return false;
      const band = REARM_BAND * 100;
      if (condition.direction === 'up') return moved < condition.percent - band;
      if (condition.direction === 'down') return moved > -condition.percent + band;
      return Math.abs(moved) < condition.percent - band;
    }
  }
}

/**
 * The alert after a reading, and whether it fired. An alert set while its condition already holds
 * is set unarmed (see initialState): it fires at the next crossing, not at once.
 */
export function step(condition: AlertCondition, state: AlertState, reading: Reading): { state: AlertState; fired: boolean } {
  if (state.paused || state.done) return { state, fired: false };
  if (!state.armed) {
    return rearms(condition, reading) ? { state: { ...state, armed: true }, fired: false } : { state, fired: false };
  }
  if (holds(condition, reading) !== true) return { state, fired: false };
  // A crossing while snoozed is let pass; the price must go back past the band before it counts.
  if (state.snoozedUntil !== undefined && reading.now < state.snoozedUntil) return { state: { ...state, armed: false }, fired: false };
  return { state: { ...state, armed: false, done: state.oneShot, snoozedUntil: undefined }, fired: true };
}

/** A new alert's state: armed unless its condition holds already (then it waits for a crossing). */
export function initialState(condition: AlertCondition, reading: Reading | undefined, oneShot = false): AlertState {
  const holdsNow = reading === undefined ? false : holds(condition, reading) === true;
  return { armed: !holdsNow, paused: false, snoozedUntil: undefined, oneShot, done: false };
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
