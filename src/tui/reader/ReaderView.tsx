// The dashboard for a screen reader draws nothing: after each change it describes the screen and
// the output says what changed (reader-output.ts). The ticker's prices are left out of what
// renders it: a tick alone says nothing.
import { useLayoutEffect } from 'react';
import { type Selectable, useSelected } from '../state/external-state.js';
import { selectedSymbol, type TickerState } from '../ticker/ticker-state.js';
import { describeScreen, type ScreenParts } from './describe-screen.js';
import { selectedPrice } from './describe-ticker.js';
import type { ReaderOutput } from './reader-output.js';

/** What of the ticker a reader is told of as it changes: the selection and the lists, not prices. */
export const tickerShape = (s: TickerState): string =>
  [s.cursor, selectedSymbol(s), s.active, s.paused, s.lists.map((l) => `${l.name}:${l.symbols.join(',')}:${l.columns.join(',')}`).join(';'), s.unknown.size].join(' ');

export function ReaderView({ output, ticker, parts }: { output: ReaderOutput; ticker: Selectable<TickerState>; parts: () => ScreenParts }) {
  useSelected(ticker, tickerShape);
  // `o` reads the screen as it is when pressed, `t` and the clock the price: a price may have
  // moved since the last render.
  output.describe = () => describeScreen(parts());
  output.price = () => {
    const { ticker: now, names } = parts();
    return selectedPrice(now, names);
  };
  useLayoutEffect(() => output.show(describeScreen(parts())));
  return null;
}
