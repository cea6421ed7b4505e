// One symbol over both panes: its name and listing, the price and its changes since the tick
// before and since the day's open, the day's range and volume as recorded, the spans to choose
// from, and the chart of the span chosen.
import { useMouseArea } from '../mouse/mouse-areas.js';
import { Box, Text } from 'ink';
import type { DayFigures } from '../../market/day-figures.js';
import { listingOf } from '../../market/listing.js';
import { SPANS } from '../../market/spans.js';
import { compactNumber, formatChange, formatPrice, signedPercent } from '../../text/numbers.js';
import { drawn } from '../../text/sanitize.js';
import { clockTime } from '../../text/time.js';
import { fit, fitEntries, width as textWidth } from '../../text/width.js';
import { inverse } from '../style/attributes.js';
import { useGlyphs } from '../style/glyphs.js';
import { changeColor, useTheme } from '../style/theme.js';
import { chartBox, type DetailModel } from './use-detail-view.js';

export interface DetailViewProps {
  model: DetailModel;
  /** The company's name from the catalogue, when it has come. */
  name: string | undefined;
  /** The server does not know the symbol. */
  unknown: boolean;
  width: number;
  height: number;
}

/** "+1.20 (+0.57%)", or nothing when there is nothing to compare with. */
function change(value: number | undefined, percent: number | undefined, price: number): string {
  if (value === undefined) return '';
  const sign = value > 0 ? '+' : value < 0 ? '-' : '±';
  return `${sign}${formatChange(Math.abs(value), price)}${percent === undefined ? '' : ` (${signedPercent(percent)})`}`;
}

export function DetailView({ model, name, unknown, width, height }: DetailViewProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  // The chart's box is the view's inside: one measure for the lines above it and for it.
  const inner = chartBox(width, height).width;
  const cut = glyphs.ellipsis;
  const f: DayFigures | undefined = model.figures;
  const title = fitEntries(
    [
      { text: drawn(model.symbol), rank: 1 },
      { text: drawn(name ?? ''), rank: 2 },
      { text: listingOf(model.symbol), rank: 3 },
    ].filter((e) => e.text !== ''),
    inner,
    glyphs.separator,
    cut,
  );
  const tick = f && change(f.tickChange, f.tickPercent, f.price);
  const today = f && change(f.dayChange, f.dayPercent, f.price);
  const since = f?.recordedSince === undefined ? '' : ` (since ${clockTime(f.recordedSince)})`;
  const day = f?.open === undefined
    ? 'nothing recorded today yet'
    : `open ${formatPrice(f.open)}  high ${formatPrice(f.high!)}  low ${formatPrice(f.low!)}  volume ${compactNumber(f.volume!)}${since}`;
  // The price, then its changes, each in the colour of its direction.
  const priceLine: { text: string; color?: string | undefined }[] = f
    ? [
        { text: formatPrice(f.price) },
        { text: tick ? `  ${tick} tick` : '  first price this session', color: changeColor(theme, f.tickChange) },
        { text: today ? `  ${today} today` : '', color: changeColor(theme, f.dayChange) },
      ]
    : [];
  const spans = SPANS.map((s) => (s.name === model.span ? inverse(` ${s.name} `) : ` ${s.name} `));
  const spanWidth = SPANS.reduce((sum, s) => sum + s.name.length + 2, 0) + SPANS.length - 1;

  // The wheel as its keys.
  const ref = useMouseArea({ kind: 'wheel', up: 'detail.span-shorter', down: 'detail.span-longer', step: 1 });
  return (
    <Box ref={ref} flexDirection="column" width={width} height={height} borderStyle={glyphs.border.focused} paddingX={1} {...(theme.focusBorder && { borderColor: theme.focusBorder })}>
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {fit(title, inner, 'left', cut)}
      </Text>
      {f ? (
        <Text wrap="truncate-end">
          {priceLine.map((part, i) => (
            <Text key={i} bold={i === 0} {...(part.color && { color: part.color })}>
              {part.text}
            </Text>
          ))}
          {' '.repeat(Math.max(0, inner - priceLine.reduce((sum, part) => sum + textWidth(part.text), 0)))}
        </Text>
      ) : (
        <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
          {fit(unknown ? 'the server does not know this symbol' : `waiting for a price${cut}`, inner, 'left', cut)}
        </Text>
      )}
      <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
        {fit(f ? day : '', inner, 'left', cut)}
      </Text>
      <Text wrap="truncate-end">
        {spans.join(' ')}
        <Text {...(theme.muted && { color: theme.muted })}>{fit(`  ${glyphs.text('h/l or 1-5: span · j/k: symbol')}`, Math.max(0, inner - spanWidth), 'left', cut)}</Text>
      </Text>
      <Text> </Text>
      {model.chart ? (
        model.chart.map((line, i) => <Text key={i}>{line}</Text>)
      ) : (
        <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
          {fit(model.note ?? '', inner, 'left', cut)}
        </Text>
      )}
    </Box>
  );
}
