// The sandbox market: each listing's price is a geometric random walk in continuous time, and its
// volume a cumulative intraday curve. Both are pure functions of (seed, symbol, time), so any
// moment can be priced in any order and a replay with the same seed and epoch gives the same path.
import type { Listing } from './catalogue.js';
import { gaussian, hash3, hashString, uniform } from './random.js';

export interface Quote {
  symbol: string;
  price: number;
  volume: number;
}

/**
 * What the market simulator needs to price exactly as every other process on the database (the
 * market a database keeps, kept-market.ts).
 */
export interface MarketSettings {
  seed: number;
  /** Where the walk starts, ms since the Unix epoch. */
  epochMs: number;
}

export interface MarketOptions {
  catalogue: readonly Listing[];
  seed: number;
  /** Where the walk starts (ms since the Unix epoch); prices at the epoch are the base prices. */
  epochMs?: number;
  /** The clock; tests pass their own. */
  now?: () => number;
}

const STEP_MS = 250;
/** The walk is a Brownian bridge over 2^32 steps (34 years), pinned to 0 at both ends. */
const HORIZON_LEVELS = 32;
const HORIZON = 2 ** HORIZON_LEVELS;
/** Trading seconds in a year: volatility is quoted per year of trading time. */
const TRADING_SECONDS_PER_YEAR = 252 * 6.5 * 3600;
const MINUTES_PER_DAY = 1440;
const MS_PER_DAY = 86_400_000;

interface SymbolState {
  listing: Listing;
  key: number;
  startPrice: number;
  sigmaPerStep: number;
  /** The two walk values around the last step asked for, so most quotes cost no descent. */
  step: number;
  walkAt: number;
  walkNext: number;
  /** The cumulative volume curve of the day last asked for: fraction done at each minute. */
  day: number;
  dayVolume: number;
  dayCurve: Float64Array;
  /** Never report less than already reported today, even if the clock steps back. */
  lastVolume: number;
}

export class MarketSimulator {
  readonly #bySymbol = new Map<string, Listing>();
  readonly #states = new Map<string, SymbolState>();
  readonly #seed: number;
  readonly #epochMs: number;
  readonly #now: () => number;

  constructor(options: MarketOptions) {
    for (const listing of options.catalogue) this.#bySymbol.set(listing.symbol, listing);
    this.#seed = options.seed >>> 0;
    this.#now = options.now ?? Date.now;
    this.#epochMs = options.epochMs ?? this.#now();
  }

  has(symbol: string): boolean {
    return this.#bySymbol.has(symbol);
  }

  /** The quote for a known symbol at the clock's current time, or undefined for an unknown one. */
  quote(symbol: string): Quote | undefined {
    const state = this.#state(symbol);
    if (!state) return undefined;
    const nowMs = this.#now();
    return { symbol, price: roundPrice(this.#price(state, nowMs)), volume: this.#volume(state, nowMs) };
  }

  #state(symbol: string): SymbolState | undefined {
    let state = this.#states.get(symbol);
    if (state) return state;
    const listing = this.#bySymbol.get(symbol);
    if (!listing) return undefined;
    const key = hash3(this.#seed, hashString(symbol));
    // Each seed starts each listing within ±4% of its base price, with its own volatility.
    const startPrice = listing.basePrice * Math.exp((uniform(key, 1) - 0.5) * 0.08);
    const annualVolatility = 0.18 + 0.37 * uniform(key, 2);
    const sigmaPerStep = annualVolatility * Math.sqrt(STEP_MS / 1000 / TRADING_SECONDS_PER_YEAR);
    state = {
      listing,
      key,
      startPrice,
      sigmaPerStep,
      step: -1,
      walkAt: 0,
      walkNext: 0,
      day: -1,
      dayVolume: 0,
      dayCurve: new Float64Array(MINUTES_PER_DAY + 1),
      lastVolume: 0,
    };
    this.#states.set(symbol, state);
    return state;
  }

  #price(state: SymbolState, nowMs: number): number {
    const elapsedSteps = Math.max(0, (nowMs - this.#epochMs) / STEP_MS);
    const step = Math.min(Math.floor(elapsedSteps), HORIZON - 1);
    if (step !== state.step) {
      state.walkAt = step === state.step + 1 ? state.walkNext : walk(state.key, step);
      state.walkNext = walk(state.key, step + 1);
      state.step = step;
    }
    // Between two steps the log-price moves linearly, so two requests a moment apart differ a little.
    const fraction = Math.min(1, elapsedSteps - step);
    const position = state.walkAt + (state.walkNext - state.walkAt) * fraction;
    return state.startPrice * Math.exp(state.sigmaPerStep * position);
  }

  #volume(state: SymbolState, nowMs: number): number {
    const day = Math.floor(nowMs / MS_PER_DAY);
    // A clock stepping back over midnight must not restart a day already reported.
    if (day < state.day) return state.lastVolume;
    if (day !== state.day) {
      state.day = day;
      state.dayVolume = state.listing.averageVolume * (0.6 + 0.8 * uniform(state.key, 3, day));
      fillDayCurve(state.dayCurve, state.key, day);
      state.lastVolume = 0;
    }
    const minutes = (nowMs - day * MS_PER_DAY) / 60_000;
    const minute = Math.min(Math.floor(minutes), MINUTES_PER_DAY - 1);
    const curve = state.dayCurve;
    const done = curve[minute]! + (curve[minute + 1]! - curve[minute]!) * (minutes - minute);
    state.lastVolume = Math.max(state.lastVolume, Math.floor(state.dayVolume * done));
    return state.lastVolume;
  }
}

/**
 * The walk's value (in standard deviations of one step) at `step`, by descending the Brownian
 * bridge: each dyadic midpoint is the mean of its ends plus a normal of variance (span / 4).
 * 32 levels give random access to any step in O(32) with no stored history.
 */
function walk(key: number, step: number): number {
  let low = 0;
  let high = HORIZON;
  let lowValue = 0;
  let highValue = 0;
  while (high - low > 1) {
    if (step === low) return lowValue;
    const mid = low + (high - low) / 2;
    const midValue = (lowValue + highValue) / 2 + Math.sqrt((high - low) / 4) * gaussian(key, mid, 1);
    if (step < mid) {
      high = mid;
      highValue = midValue;
    } else {
      low = mid;
      lowValue = midValue;
    }
  }
  return step === low ? lowValue : highValue;
}

/** A day's cumulative volume curve: busier at the ends of the day, with per-minute noise. */
function fillDayCurve(curve: Float64Array, key: number, day: number): void {
  curve[0] = 0;
  for (let minute = 0; minute < MINUTES_PER_DAY; minute++) {
    const fromMidday = (minute / MINUTES_PER_DAY - 0.5) * 2;
    const weight = (1 + 1.5 * fromMidday * fromMidday) * (0.4 + 1.2 * uniform(key, day, minute + 7));
    curve[minute + 1] = curve[minute]! + weight;
  }
  const total = curve[MINUTES_PER_DAY]!;
  for (let minute = 1; minute <= MINUTES_PER_DAY; minute++) curve[minute]! /= total;
}

/** Prices carry 2 decimal places, 4 below 1.00. */
export function roundPrice(price: number): number {
  const places = price < 1 ? 4 : 2;
  const factor = 10 ** places;
  return Math.round(price * factor) / factor;
}
