// The status line as a sentence: where tickbook is connected, how the last request went, how the
// prices come, and the error or notice standing, for a reader that cannot glance at a line.
import { sanitize } from '../../text/sanitize.js';
import type { StatusSnapshot } from '../state/status.js';
import type { TickerState } from '../ticker/ticker-state.js';
import { countWords } from './spoken-words.js';

export function statusSentence(target: string, status: StatusSnapshot, latencyMs: number | undefined, ticker: TickerState, now: number): string {
  const parts = [`Connected to ${sanitize(target)}`];
  if (latencyMs !== undefined) parts.push(`the last request took ${countWords(Math.round(latencyMs), 'millisecond')}`);
  if (ticker.paused) parts.push('prices paused');
  else parts.push(`prices every ${countWords(ticker.intervalS, 'second')}`);
  if (ticker.lastSuccessAt !== undefined) parts.push(`the last came ${countWords(Math.max(0, Math.round((now - ticker.lastSuccessAt) / 1000)), 'second')} ago`);
  if (status.busy > 0) parts.push('working');
  if (status.error) parts.push(`problem: ${sanitize(status.error.message)}`);
  else if (status.notice) parts.push(`last: ${sanitize(status.notice)}`);
  else parts.push('no problem');
  return `${parts.join('; ')}.`;
}
