// The alerts view over both panes: the form that sets or edits an alert, every alert of this
// server with its state (and a note for a symbol the server no longer serves), and the fired log.
import { Box, Text } from 'ink';
import { armingWords, describeCondition } from '../../market/alerts.js';
import { parseAlertLine } from '../../market/alert-grammar.js';
import type { LoggedFiring, StoredAlert } from '../../store/alerts-store.js';
import { formatPrice } from '../../text/numbers.js';
import { drawn } from '../../text/sanitize.js';
import { clockTime, localDateTime } from '../../text/time.js';
import { fit } from '../../text/width.js';
import { inverse } from '../style/attributes.js';
import { Pane } from '../chrome/Pane.js';
import { FormFields, formHeight } from '../components/FormFields.js';
import { useGlyphs } from '../style/glyphs.js';
import { LIST_COMMANDS, useMouseArea } from '../mouse/mouse-areas.js';
import { usePagerTop } from '../state/scroll.js';
import { useTheme } from '../style/theme.js';
import { formState } from '../state/form.js';
import type { AlertForm, AlertsView as View } from './alerts-state.js';

export interface AlertsViewProps {
  view: Extract<View, { open: true }>;
  alerts: readonly StoredAlert[];
  firings: readonly LoggedFiring[];
  /** Symbols the server said it does not know, at the last poll. */
  unknown: ReadonlySet<string>;
  /** Why the alerts cannot be had, when they cannot. */
  problem: string | undefined;
  now: number;
  width: number;
  height: number;
}

/** An alert's state in a few words. */
export function alertState(alert: StoredAlert, now: number): string {
  if (alert.done) return 'done (fired once)';
  if (alert.paused) return 'paused';
  if (alert.snoozedUntil !== undefined && alert.snoozedUntil > now) return `snoozed until ${clockTime(alert.snoozedUntil)}`;
  return alert.armed ? 'armed' : `waits for ${armingWords(alert.condition, alert.band, formatPrice)}`;
}

/** The conditions there are, said while the form still needs one. */
const CONDITIONS = 'above 200 · below 150 · move -5 (from open|close|set) · stale 3 · then "once" to fire once';

/** What saving the form would set, in words (said once it is ready): "fires on AAPL above 210.00, once: Enter saves". */
function outcome(form: AlertForm): string {
  const spec = parseAlertLine(form.values.condition);
  if (typeof spec === 'string') return 'Enter saves';
  return `fires on ${form.values.symbol.trim().toUpperCase()} ${describeCondition(spec.condition, formatPrice)}${spec.oneShot ? ', once' : ''}: Enter saves`;
}

export function AlertsView({ view, alerts, firings, unknown, problem, now, width, height }: AlertsViewProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const cut = glyphs.ellipsis;
  const inner = Math.max(1, width - 4);
  const muted = theme.muted ? { color: theme.muted } : {};
  // Borders and the title row.
  let room = Math.max(1, height - 3);
  const form = view.form;
  if (form) room -= formHeight(2) + 1;
  // The alerts and the log share what is left: the alerts up to half, at least three lines each.
  const alertRows = Math.max(1, Math.min(Math.max(1, alerts.length), Math.floor((room - 2) / 2)));
  const logRows = Math.max(1, room - alertRows - 3);
  const alertsTop = usePagerTop(alerts.length, view.cursor, alertRows);
  const logTop = usePagerTop(firings.length, view.logCursor, logRows);
  // A click or the wheel on the list the keys are not moving gives it the keys first (Tab's).
  const alertsRef = useMouseArea({
    kind: 'rows',
    first: 0,
    top: alertsTop,
    rows: alertRows,
    cursor: view.cursor,
    count: problem ? 0 : alerts.length,
    commands: { ...LIST_COMMANDS.alerts, activate: view.section === 'log' ? 'alerts.section' : undefined },
  });
  const logRef = useMouseArea({
    kind: 'rows',
    first: 0,
    top: logTop,
    rows: logRows,
    cursor: view.logCursor,
    count: firings.length,
    commands: { down: 'alerts.down', up: 'alerts.up', activate: view.section === 'alerts' ? 'alerts.section' : undefined },
  });

  const idWidth = Math.max(2, ...alerts.map((a) => String(a.id).length));
  const row = (alert: StoredAlert): { text: string; gone: boolean } => {
    const condition = describeCondition(alert.condition, formatPrice) + (alert.oneShot ? ', once' : '');
    const gone = unknown.has(alert.symbol);
    const state = alertState(alert, now) + (gone ? `${glyphs.separator}${glyphs.cross} the server no longer serves ${alert.symbol}` : '');
    return { text: `${fit(String(alert.id), idWidth, 'right')}  ${fit(drawn(alert.symbol), 8, 'left', cut)}  ${fit(glyphs.text(condition), 26, 'left', cut)}  ${glyphs.text(state)}`, gone };
  };
  const footerLine = view.confirmDelete
    ? `Delete alert ${alerts[view.cursor]?.id ?? ''} (${drawn(alerts[view.cursor]?.symbol ?? '')})? y: delete${glyphs.separator}N: keep`
    : undefined;

  return (
    <Pane title={`Alerts${glyphs.separator}${alerts.length}`} info={view.section === 'log' ? 'the fired log: Tab for the alerts' : 'Tab: the fired log'} focused width={width} height={height}>
      {form ? (
        <>
          <FormFields
            title={form.editing === undefined ? 'New alert' : `Edit alert ${form.editing}`}
            fields={[
              { key: 'symbol', label: 'symbol', value: form.values.symbol, placeholder: 'AAPL', fixed: form.editing !== undefined },
              { key: 'condition', label: 'condition', value: form.values.condition, placeholder: 'above 200', maxLength: form.maxLengths.condition },
            ]}
            focused={form.field}
            cursor={form.cursor}
            saving={form.saving}
            state={formState(form)}
            outcome={outcome(form)}
            hint={form.values.condition.trim() === '' ? CONDITIONS : undefined}
            width={inner}
          />
          <Text> </Text>
        </>
      ) : null}
      <Text bold wrap="truncate-end" {...(view.section === 'alerts' && theme.accent && { color: theme.accent })}>
        {fit(`${fit('ID', idWidth, 'right')}  ${fit('SYMBOL', 8)}  ${fit('CONDITION', 26)}  STATE`, inner, 'left', cut)}
      </Text>
      <Box ref={alertsRef} flexDirection="column">
      {problem ? (
        <Text wrap="truncate-end" {...(theme.error && { color: theme.error })}>{fit(glyphs.text(`${glyphs.cross} ${drawn(problem)}`), inner, 'left', cut)}</Text>
      ) : alerts.length === 0 ? (
        <Text wrap="truncate-end" {...muted}>{fit('no alerts yet: a sets one (on the ticker, a sets one on the symbol highlighted)', inner, 'left', cut)}</Text>
      ) : (
        alerts.slice(alertsTop, alertsTop + alertRows).map((alert, i) => {
          const { text, gone } = row(alert);
          const line = fit(text, inner, 'left', cut);
          const here = view.section === 'alerts' && alertsTop + i === view.cursor;
          return (
            <Text key={alert.id} wrap="truncate-end" {...(gone ? theme.warning && { color: theme.warning } : (alert.paused || alert.done) && muted)}>
              {here ? inverse(line) : line}
            </Text>
          );
        })
      )}
      </Box>
      <Text wrap="truncate-end" {...(view.confirmDelete ? theme.warning && { color: theme.warning } : muted)}>
        {fit(glyphs.text(footerLine ?? ''), inner, 'left', cut)}
      </Text>
      <Text bold wrap="truncate-end" {...(view.section === 'log' && theme.accent && { color: theme.accent })}>
        {fit(`Fired${glyphs.separator}the last ${firings.length} of at most 100`, inner, 'left', cut)}
      </Text>
      <Box ref={logRef} flexDirection="column" height={logRows}>
        {firings.length === 0 ? (
          <Text wrap="truncate-end" {...muted}>{fit('nothing has fired yet', inner, 'left', cut)}</Text>
        ) : (
          firings.slice(logTop, logTop + logRows).map((firing, i) => {
            const line = fit(glyphs.text(`${localDateTime(firing.at)}  #${firing.alert}${firing.removed ? ' (removed)' : ''} ${drawn(firing.text)}`), inner, 'left', cut);
            const here = view.section === 'log' && logTop + i === view.logCursor;
            return (
              <Text key={`${firing.at}:${firing.alert}:${i}`} wrap="truncate-end">
                {here ? inverse(line) : line}
              </Text>
            );
          })
        )}
      </Box>
    </Pane>
  );
}
