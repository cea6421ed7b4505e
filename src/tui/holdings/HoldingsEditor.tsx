// A symbol's holdings in the ticker pane: each lot with what it is worth at the last price, the
// position's sums, the form that adds or edits a lot, and the question before one is deleted.
import { Box, Text } from 'ink';
import { type Lot, positionOf } from '../../market/holdings.js';
import { currencyOf } from '../../market/listing.js';
import { fixedText, formatMoney } from '../../market/money.js';
import { formatPrice, signedPercent } from '../../text/numbers.js';
import { drawn } from '../../text/sanitize.js';
import { fit, fitEntries } from '../../text/width.js';
import { inverse } from '../style/attributes.js';
import { FormFields, formHeight } from '../components/FormFields.js';
import { useGlyphs } from '../style/glyphs.js';
import { LIST_COMMANDS, useMouseArea } from '../mouse/mouse-areas.js';
import { usePagerTop } from '../state/scroll.js';
import { useTheme } from '../style/theme.js';
import { formState } from '../state/form.js';
import type { HoldingsEditor as Editor } from './holdings-state.js';
import { highlightedPlace } from './lot-highlight.js';

export interface HoldingsEditorProps {
  editor: Extract<Editor, { open: true }>;
  lots: readonly Lot[];
  price: number | undefined;
  dayOpen: number | undefined;
  /** The money is hidden ($): figures show as dots, but for the form being typed into. */
  hidden: boolean;
  width: number;
  rows: number;
}

const PLACEHOLDERS = { quantity: 'shares, e.g. 10 or 0.5', cost: 'per share, in the price\'s unit', date: 'optional: YYYY-MM-DD' } as const;
const LABELS = { quantity: 'quantity', cost: 'cost per share', date: 'bought on' } as const;

export function HoldingsEditor({ editor, lots, price, dayOpen, hidden, width, rows }: HoldingsEditorProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const cut = glyphs.ellipsis;
  const muted = theme.muted ? { color: theme.muted } : {};
  const currency = currencyOf(editor.symbol);
  const unit = currency.pricedInMinor ? `${currency.code}, prices in pence` : currency.code;
  const form = editor.form;
  // On the lot it was put on, wherever that is now (another process's change is seen at a poll).
  const cursor = highlightedPlace(lots, editor);
  // The title, the header, the sums and the keys; the form when open.
  const lotRows = Math.max(1, rows - 4 - (form ? formHeight(3) : 0));
  // A form opens where the eye is: right under the lot it edits, or under the last lot for a new
  // one (the lots shown move to keep that lot in view), never at the foot of a tall pane.
  const formAfter = form && form.editing === undefined ? lots.length - 1 : cursor;
  const top = usePagerTop(lots.length, formAfter, lotRows);
  const shownLots = lots.slice(top, top + lotRows);
  const above = form ? shownLots.slice(0, Math.max(0, formAfter - top + 1)) : shownLots;
  const below = shownLots.slice(above.length);
  const ref = useMouseArea({ kind: 'rows', first: 0, top, rows: above.length, cursor, count: lots.length, commands: LIST_COMMANDS.holdings });
  const position = positionOf(editor.symbol, lots, price, dayOpen);
  const dots = glyphs.masked;
  /** A figure, or dots while the money is hidden. */
  const shown = (text: string): string => (hidden ? dots : text);
  const column = (text: string, w: number, align: 'left' | 'right' = 'right') => fit(text, w, align, cut);
  const header = `${column('#', 3)}  ${column('QTY', 12)}  ${column('COST/SH', 10)}  ${column('BOUGHT', 10, 'left')}  ${column('P/L', 11)}`;
  const lotLine = (lot: Lot) => {
    const gain = positionOf(lot.symbol, [lot], price, undefined).gain;
    return `${column(String(lot.number), 3)}  ${column(shown(fixedText(lot.quantity)), 12)}  ${column(shown(formatPrice(Number(fixedText(lot.cost)))), 10)}  ${column(lot.bought ?? '', 10, 'left')}  ${column(gain === undefined ? '' : shown(formatMoney(gain, currency, true)), 11)}`;
  };
  // What matters most stays when the pane is narrow: the P/L, then the value, then the rest.
  const sums =
    lots.length === 0
      ? 'no lots yet'
      : fitEntries(
          [
            { text: `${shown(fixedText(position.quantity))} sh`, rank: 3 },
            { text: position.value === undefined ? 'no price yet' : `value ${shown(formatMoney(position.value, currency))}`, rank: 2 },
            { text: position.gain === undefined ? '' : `P/L ${shown(formatMoney(position.gain, currency, true))}${position.percent === undefined ? '' : ` (${signedPercent(position.percent)})`}`, rank: 1 },
            { text: position.day === undefined ? '' : `today ${shown(formatMoney(position.day, currency, true))}`, rank: 4 },
          ].filter((entry) => entry.text !== ''),
          width,
          glyphs.separator,
          cut,
        );
  // The question names the lot it was asked about, by number, even once another process removed it.
  const asked = lots.find((lot) => lot.number === editor.lot);
  const last = editor.confirmDelete
    ? `Delete lot ${editor.lot ?? ''}${asked ? ` (${shown(fixedText(asked.quantity))} at ${shown(fixedText(asked.cost))})` : ''}? y: delete${glyphs.separator}N: keep`
    : ['a add a lot', 'e edit', 'd delete', 'Esc close'].join(glyphs.separator);

  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {fit(`Holdings of ${drawn(editor.symbol)} (${unit})${price === undefined ? '' : ` at ${formatPrice(price)}`}`, width, 'left', cut)}
      </Text>
      <Text bold wrap="truncate-end" {...muted}>
        {fit(header, width, 'left', cut)}
      </Text>
      <Box ref={ref} flexDirection="column">
        {above.map((lot, i) => {
          const line = fit(lotLine(lot), width, 'left', cut);
          return (
            <Text key={lot.number} wrap="truncate-end">
              {top + i === cursor && !form ? inverse(line) : line}
            </Text>
          );
        })}
      </Box>
      {form ? (
        <FormFields
          title={form.editing === undefined ? `New lot of ${drawn(editor.symbol)}` : `Edit lot ${form.editing} of ${drawn(editor.symbol)}`}
          fields={(['quantity', 'cost', 'date'] as const).map((key) => ({ key, label: LABELS[key], value: form.values[key], placeholder: PLACEHOLDERS[key], maxLength: form.maxLengths[key] }))}
          focused={form.field}
          cursor={form.cursor}
          saving={form.saving}
          state={formState(form)}
          outcome="Enter saves, Tab moves between the fields, Esc cancels"
          width={width}
        />
      ) : null}
      {below.map((lot) => (
        <Text key={lot.number} wrap="truncate-end">
          {fit(lotLine(lot), width, 'left', cut)}
        </Text>
      ))}
      <Text wrap="truncate-end">{fit(glyphs.text(sums), width, 'left', cut)}</Text>
      {form ? null : (
        <Text wrap="truncate-end" {...(editor.confirmDelete ? theme.warning && { color: theme.warning } : muted)}>
          {fit(glyphs.text(last), width, 'left', cut)}
        </Text>
      )}
    </Box>
  );
}
