// Alerts as words: "above 200", "below 150.5", "move -5 from set", "stale 3", with "once" for a
// one-shot. One grammar for the command line (tickbook alerts add) and the dashboard's alert form,
// each problem named by its field.
import type { AlertCondition } from './alerts.js';

export const ALERT_KINDS = ['above', 'below', 'move', 'stale'] as const;
/** What a move is measured from (`move 5 from set`). */
export const MOVE_FROM = ['open', 'close', 'set'] as const;

/** A positive number written plainly ("200", "0.5", ".5"; not "0x10" or "1e3") for `field`, or why not. */
function positiveNumber(field: string, raw: string | undefined, shown: string | undefined = raw): number | string {
  const plain = raw !== undefined && /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(raw);
  const value = plain ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value <= 0) return `${field} must be a positive number, not ${JSON.stringify(shown ?? '')}`;
  return value;
}

/**
 * The condition of `kind` and its value (`from`, for a move, as given apart: the command line's
 * option, named `fromName` in a message), or the problem, naming the field it is in.
 */
export function conditionFrom(kind: string | undefined, value: string | undefined, from: string | undefined, fromName: string): AlertCondition | string {
  if (from !== undefined && kind !== 'move') return `${fromName} is for a move alert`;
  switch (kind) {
    case 'above':
    case 'below': {
      const price = positiveNumber('the price', value);
      return typeof price === 'string' ? price : { kind, price };
    }
    case 'move': {
      const sign = value?.trim()[0];
      const percent = positiveNumber('the percentage', sign === '+' || sign === '-' ? value!.trim().slice(1) : value, value);
      if (typeof percent === 'string') return percent;
      if (from !== undefined && !(MOVE_FROM as readonly string[]).includes(from)) return `${fromName} must be open, close or set, not ${JSON.stringify(from)}`;
      return { kind, percent, direction: sign === '+' ? 'up' : sign === '-' ? 'down' : 'either', from: (from as (typeof MOVE_FROM)[number] | undefined) ?? 'open' };
    }
    case 'stale':
      if (value === undefined || !/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
        return `the number of polls must be a whole number from 1 to 1000, not ${JSON.stringify(value ?? '')}`;
      }
      return { kind, polls: Number(value) };
    default:
      return `expected above, below, move or stale, not ${JSON.stringify(kind ?? '')}`;
  }
}

export interface AlertSpec {
  condition: AlertCondition;
  oneShot: boolean;
}

/** The alert form's line: KIND VALUE [from open|close|set] [once]; or what is wrong with it. */
export function parseAlertLine(text: string): AlertSpec | string {
  const words = text.trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return 'type a condition: above 200, below 150, move -5 from set, stale 3 (add "once" to fire once)';
  const oneShot = words.at(-1) === 'once';
  if (oneShot) words.pop();
  const [kind, value, ...rest] = words;
  let from: string | undefined;
  if (rest[0] === 'from') {
    if (rest[1] === undefined) return 'from must be followed by open, close or set';
    from = rest[1];
    rest.splice(0, 2);
  }
  if (rest.length > 0) return `unexpected ${JSON.stringify(rest[0])}: the condition ends after its value (and "from …", "once")`;
  const condition = conditionFrom(kind, value, from, 'from');
  return typeof condition === 'string' ? condition : { condition, oneShot };
}

/** A number as the grammar reads it: written out, never in exponent form (1e-7 is 0.0000001). */
function plain(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return Math.abs(n) < 1 ? n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : BigInt(Math.round(n)).toString();
}

/** The line that makes `condition` again, for editing an alert. */
export function alertLine({ condition, oneShot }: AlertSpec): string {
  const once = oneShot ? ' once' : '';
  switch (condition.kind) {
    case 'above':
    case 'below':
      return `${condition.kind} ${plain(condition.price)}${once}`;
    case 'move': {
      const sign = { up: '+', down: '-', either: '' }[condition.direction];
      return `move ${sign}${plain(condition.percent)}${condition.from === 'open' ? '' : ` from ${condition.from}`}${once}`;
    }
    case 'stale':
      return `stale ${condition.polls}${once}`;
  }
}
