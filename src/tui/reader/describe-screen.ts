// The dashboard described for a screen reader, one place at a time in a fixed order: the help or
// the message log over everything, then the alerts view, then an open symbol, then the pane that
// has the focus. What each place says is its describer's (contacts, ticker, here the covers).
import { describeCondition } from '../../market/alerts.js';
import { formatPrice } from '../../text/numbers.js';
import { sanitize } from '../../text/sanitize.js';
import { absoluteTime, clockTime } from '../../text/time.js';
import type { AlertsView } from '../alerts/alerts-state.js';
import type { ContactsState } from '../contacts/contacts-state.js';
import { type DetailModel, SPAN_WORDS } from '../detail/use-detail-view.js';
import { BINDINGS, type Scope } from '../keys/keymap.js';
import type { PaneName } from '../keys/scopes.js';
import type { SearchState } from '../search/search-state.js';
import type { StatusMessage } from '../state/status.js';
import type { StoredAlert, LoggedFiring } from '../../store/alerts-store.js';
import { describeContacts } from './describe-contacts.js';
import { describeTicker, type TickerParts } from './describe-ticker.js';
import type { ReaderScreen } from './reader-screen.js';
import { amountWords, changeWords, countWords, labelWords, percentWords, placeWords, trendWord } from './spoken-words.js';

export interface ScreenParts extends TickerParts {
  focus: PaneName;
  overlay: 'help' | 'messages' | undefined;
  /** The scopes live under the help: the keys it reads are those. */
  scopesBehind: readonly Scope[];
  messages: readonly StatusMessage[];
  contacts: ContactsState;
  search: SearchState;
  alerts: { view: AlertsView; alerts: readonly StoredAlert[]; firings: readonly LoggedFiring[] } | undefined;
  detail: DetailModel | undefined;
  /** The prices recorded lately of the open symbol, for its trend. */
  detailHistory: readonly number[] | undefined;
  now: number;
  undoSeconds: number;
}

const none = { body: undefined, selected: undefined, field: undefined, facts: {} };

/**
 * "j or k, down arrow or up arrow: next or previous contact": a line per binding the help lists
 * for the live scopes, innermost first; a key an inner scope took is not listed again.
 */
export function keyLines(scopes: readonly Scope[]): string[] {
  const taken = new Set<string>();
  const lines: string[] = [];
  for (const scope of scopes) {
    const bindings = BINDINGS.filter((b) => b.scope === scope);
    for (const binding of bindings.filter((b) => !b.listedAbove)) {
      if (binding.keys.every((key) => taken.has(key))) continue;
      const line = `${labelWords(binding.label)}: ${binding.help.replace(/ \/ /g, ' or ')}`;
      if (!lines.includes(line)) lines.push(line);
    }
    for (const binding of bindings) for (const key of binding.keys) taken.add(key);
  }
  return lines;
}

function alertWords(alert: StoredAlert, now: number): string {
  const state = alert.paused ? ', paused' : alert.snoozedUntil !== undefined && alert.snoozedUntil > now ? `, snoozed until ${clockTime(alert.snoozedUntil)}` : '';
  return `alert ${alert.id}: ${sanitize(alert.symbol)} ${describeCondition(alert.condition, formatPrice)}${state}`;
}

function describeAlerts({ view, alerts, firings }: NonNullable<ScreenParts['alerts']>, now: number): ReaderScreen {
  if (!view.open) return { ...none, place: 'Alerts' };
  if (view.form) {
    const { form } = view;
    const problem = form.problems[form.field];
    return {
      ...none,
      place: `${form.editing === undefined ? 'New alert' : `Alert ${form.editing}`}. Tab goes to the next field, Enter saves, Escape cancels.`,
      facts: { problem: problem && form.tried ? `${form.field}: ${problem}` : undefined },
      field: {
        key: `alert ${form.field}`,
        prompt: form.field === 'symbol' ? 'Symbol' : 'Condition, such as above 200, below 150.5, move 5 from open, or stale 3; add once for one firing',
        text: { value: form.values[form.field], cursor: form.cursor },
      },
    };
  }
  const alert = alerts[view.cursor];
  if (view.confirmDelete && alert) return { ...none, place: `Delete alert ${alert.id}? y deletes, n keeps.` };
  if (view.section === 'log') {
    const firing = firings[view.logCursor];
    return {
      ...none,
      place: `Alerts fired, ${countWords(firings.length, 'firing')}. Tab goes back to the alerts.`,
      selected: firing && {
        key: `firing ${view.logCursor} ${firing.at}`,
        words: `${absoluteTime(new Date(firing.at))}: ${sanitize(firing.text)}, ${placeWords(view.logCursor, firings.length)}`,
      },
    };
  }
  return {
    ...none,
    place: `Alerts, ${countWords(alerts.length, 'alert')}. a sets one, e edits, p pauses, d deletes, Tab reads what fired, Escape closes.`,
    selected: alert && { key: `alert ${alert.id}`, words: `${alertWords(alert, now)}, ${placeWords(view.cursor, alerts.length)}` },
  };
}

function describeDetail(model: DetailModel, history: readonly number[] | undefined): ReaderScreen {
  const { symbol, figures } = model;
  const lines: string[] = [];
  if (figures) {
    lines.push(`price ${amountWords(formatPrice(figures.price), symbol)}`);
    if (figures.tickChange !== undefined) lines.push(`since the last price ${changeWords(figures.tickChange, figures.price, symbol)}`);
    if (figures.dayChange !== undefined) lines.push(`today ${changeWords(figures.dayChange, figures.price, symbol)}${figures.dayPercent === undefined ? '' : `, ${percentWords(figures.dayPercent)}`}`);
    for (const [label, value] of [['opened at', figures.open], ['high', figures.high], ['low', figures.low]] as const) {
      if (value !== undefined) lines.push(`${label} ${amountWords(formatPrice(value), symbol)}`);
    }
    if (figures.volume !== undefined) lines.push(`volume ${figures.volume}`);
  } else lines.push('no price yet this session');
  const trend = history && trendWord(history);
  if (trend) lines.push(`recent prices ${trend}`);
  if (model.note) lines.push(sanitize(model.note));
  return {
    ...none,
    place: `${sanitize(symbol)} open, chart of ${SPAN_WORDS[model.span]}. j and k go to the next symbol, h and l change the span, Escape closes.`,
    // Read again when its first price comes: opened before any, it said there was none.
    body: { key: `${symbol} ${model.span} ${figures === undefined ? 'unpriced' : 'priced'}`, words: lines.join('\n') },
  };
}

export function describeScreen(parts: ScreenParts): ReaderScreen {
  if (parts.overlay === 'help') {
    return {
      ...none,
      place: 'Help: the keys that work here. Escape closes.',
      body: { key: parts.scopesBehind.join(' '), words: keyLines(parts.scopesBehind).join('\n') },
    };
  }
  if (parts.overlay === 'messages') {
    const lines = parts.messages.map((m) => `${clockTime(m.at, true)}, ${m.kind === 'error' ? 'problem: ' : ''}${sanitize(m.text)}`);
    // Read once, on opening: a message that comes meanwhile is said as it comes.
    return { ...none, place: 'Messages, oldest first. Escape closes.', body: { key: 'messages', words: lines.length > 0 ? lines.join('\n') : 'no messages' } };
  }
  if (parts.alerts?.view.open) return describeAlerts(parts.alerts, parts.now);
  if (parts.detail) return describeDetail(parts.detail, parts.detailHistory);
  if (parts.focus === 'ticker') return describeTicker(parts);
  return describeContacts(parts.contacts, parts.search, new Date(parts.now), parts.undoSeconds);
}
