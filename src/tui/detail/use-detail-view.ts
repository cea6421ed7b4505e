// What the detail view shows of the open symbol: the day's figures and the chart lines, read from
// the recorded history on each tick (the chart moves with every price), or why there is no chart.
import { useMemo } from 'react';
import { barStart } from '../../market/bars.js';
import { chartLines, MIN_CHART_HEIGHT } from '../../market/chart.js';
import { type DayFigures, dayFigures } from '../../market/day-figures.js';
import { joinableGapMs, SPANS, type SpanName } from '../../market/spans.js';
import type { HistoryReader } from '../../store/price-recorder.js';
import type { SymbolRow } from '../ticker/ticker-state.js';
import { clockTime } from '../../text/time.js';
import type { DetailState } from './detail-controller.js';

export interface DetailModel {
  symbol: string;
  span: SpanName;
  /** Undefined until a price has come this session. */
  figures: DayFigures | undefined;
  /** Exactly the chart box's rows, or undefined with `note` saying why not. */
  chart: string[] | undefined;
  note: string | undefined;
}

/** Rows of the view above the chart: title, price, day, spans, a blank. */
export const DETAIL_HEAD_ROWS = 5;

export const SPAN_WORDS: Record<SpanName, string> = { '1h': 'the last hour', '1d': 'the last day', '5d': 'the last 5 days', '1m': 'the last month', all: 'all that is recorded' };

/** The chart's box: the view's inner width, and its rows under the head. */
export const chartBox = (width: number, height: number) => ({ width: Math.max(0, width - 4), height: Math.max(0, height - 2 - DETAIL_HEAD_ROWS) });

export function useDetailView(
  history: HistoryReader | undefined,
  open: DetailState | undefined,
  row: SymbolRow | undefined,
  view: { width: number; height: number; unicode: boolean; intervalS: number },
): DetailModel | undefined {
  const { width, height, unicode, intervalS } = view;
  // A row is a new object only at a tick of its symbol (the ticker's reducer keeps the others), and
  // a tick is what adds to the history read here: each redraws the view.
  return useMemo(() => {
    if (!open) return undefined;
    const now = Date.now();
    const { symbol, span } = open;
    const figures = row && dayFigures(row.price, row.previous, history?.day(symbol, now), barStart('day', now), 2 * intervalS * 1000);
    const box = chartBox(width, height);
    const base = { symbol, span, figures };
    if (!history) return { ...base, chart: undefined, note: 'prices are not recorded in this run, so there is no chart' };
    // The history could not be opened: nothing will fill in, and the reason is said (m has it whole).
    if (history.unavailable !== undefined) return { ...base, chart: undefined, note: `no chart: ${history.unavailable}` };
    if (box.height < MIN_CHART_HEIGHT) return { ...base, chart: undefined, note: 'the terminal is too short for a chart' };
    const spanMs = SPANS.find((s) => s.name === span)!.ms;
    const earliest = history.earliest(symbol);
    const from = spanMs === undefined ? (earliest ?? now) : now - spanMs;
    const maxPoints = 2 * box.width;
    const points = history.points(symbol, from, now, maxPoints);
    if (points.length < 2) {
      const since = earliest === undefined ? 'nothing is recorded yet' : `recorded since ${new Date(earliest).toDateString() === new Date(now).toDateString() ? clockTime(earliest) : new Date(earliest).toLocaleDateString()}`;
      return { ...base, chart: undefined, note: `fewer than two prices in ${SPAN_WORDS[span]} (${since}): the chart fills in as prices come` };
    }
    const chart = chartLines(points, {
      width: box.width,
      height: box.height,
      from,
      to: now,
      unicode,
      gapMs: joinableGapMs(now - from, intervalS * 1000, maxPoints),
      // The symbol's alert lines, where they fall within the chart's range.
      levels: history.alertLevels(symbol),
    });
    return { ...base, chart, note: undefined };
  }, [history, open, row, width, height, unicode, intervalS]);
}
