// The status store: errors that clear when what they reported recovers (a server that could not
// be reached, once it answers), notices that fade, and a bounded log of what was said.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { RequestLogEntry } from '../../../src/api/transport.js';
import { messageLines } from '../../../src/tui/chrome/message-log.js';
import { HISTORY_LIMIT, NOTICE_MS, StatusBoard } from '../../../src/tui/state/status.js';

const refused = (origin: string) =>
  new ApiError({ kind: 'network', message: `${new URL(origin).host} refused the connection (is the server running?)`, origin });

const answered = (url: string, status = 200): RequestLogEntry => ({
  time: new Date(),
  method: 'GET',
  url,
  status,
  ms: 3,
  requestId: undefined,
  retry: 0,
  error: undefined,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('StatusBoard', () => {
  it('a server that could not be reached: the error goes once that server answers anything, not another', () => {
    const store = new StatusBoard();
    store.fail('contacts', '127.0.0.1:9 refused the connection', undefined, refused('http://127.0.0.1:9'));
    store.request(answered('http://127.0.0.1:8080/v1/utilities/stock/realtime-pricing'));
    expect(store.getSnapshot().error?.message).toMatch(/refused/);
    // No answer at all (status 0) proves nothing.
    store.request(answered('http://127.0.0.1:9/v1/contacts', 0));
    expect(store.getSnapshot().error).toBeDefined();
    store.request(answered('http://127.0.0.1:9/v1/utilities/stock/symbols', 503));
    expect(store.getSnapshot().error).toBeUndefined();
  });

  it('the same error again, already the newest, tells no one; another retry time, or an older one failing again, does', () => {
    const store = new StatusBoard();
    let told = 0;
    store.subscribe(() => told++);
    store.fail('ticker', 'prices: left out AAPL: price is negative (-5)');
    const snapshot = store.getSnapshot();
    store.fail('ticker', 'prices: left out AAPL: price is negative (-5)');
    expect(told).toBe(1);
    expect(store.getSnapshot()).toBe(snapshot);
    store.fail('ticker', 'prices: left out AAPL: price is negative (-5)', 5000);
    expect(told).toBe(2);
    expect(store.getSnapshot().error?.retryAt).toBe(5000);
    // An older error failing the same way again is the newest once more, as it always was.
    store.fail('contacts', 'contacts: server_error');
    store.fail('ticker', 'prices: left out AAPL: price is negative (-5)', 5000);
    expect(store.getSnapshot().error?.source).toBe('ticker');
    expect(told).toBe(4);
    expect(store.getSnapshot().history.map((m) => m.text)).toEqual(['prices: left out AAPL: price is negative (-5)', 'contacts: server_error']);
  });

  it('an error the server gave (not a connection one) stays until its own source recovers', () => {
    const store = new StatusBoard();
    store.fail('contacts', 'display_name must be at most 64 characters', undefined, new ApiError({ kind: 'invalid', status: 400, message: 'x' }));
    store.request(answered('http://127.0.0.1:8080/v1/contacts'));
    expect(store.getSnapshot().error?.source).toBe('contacts');
    store.recover('contacts');
    expect(store.getSnapshot().error).toBeUndefined();
  });

  it('a notice fades after a few seconds; a newer one starts its own time', () => {
    vi.useFakeTimers();
    const store = new StatusBoard();
    store.notice('this is the last page');
    vi.advanceTimersByTime(NOTICE_MS - 100);
    expect(store.getSnapshot().notice).toBe('this is the last page');
    store.notice('this is the first page');
    vi.advanceTimersByTime(NOTICE_MS - 100);
    expect(store.getSnapshot().notice).toBe('this is the first page');
    vi.advanceTimersByTime(200);
    expect(store.getSnapshot().notice).toBeUndefined();
  });

  it('keeps the latest messages, at most HISTORY_LIMIT, and a failure repeated alike once', () => {
    let now = 1_000;
    const store = new StatusBoard(() => now);
    for (let i = 0; i < 5; i++) store.fail('ticker', 'prices: market feed is down', now + 2000);
    expect(store.getSnapshot().history).toEqual([{ at: 1_000, kind: 'error', text: 'prices: market feed is down' }]);
    for (let i = 0; i < HISTORY_LIMIT + 10; i++) {
      now += 1;
      store.notice(`notice ${i}`);
    }
    const history = store.getSnapshot().history;
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history.at(-1)?.text).toBe(`notice ${HISTORY_LIMIT + 9}`);
    expect(history[0]?.text).toBe('notice 10');
    // The same notice again straight away is one entry, at its latest time.
    now += 5;
    store.notice(`notice ${HISTORY_LIMIT + 9}`);
    expect(store.getSnapshot().history).toHaveLength(HISTORY_LIMIT);
    expect(store.getSnapshot().history.at(-1)).toEqual({ at: now, kind: 'notice', text: `notice ${HISTORY_LIMIT + 9}` });
    expect(store.getSnapshot().history.at(-2)?.text).toBe(`notice ${HISTORY_LIMIT + 8}`);
  });
});

describe('messageLines', () => {
  it('newest first, each message whole: wrapped at words under its time, never cut', () => {
    const at = Date.UTC(2026, 10, 23, 12, 0, 0);
    const long = 'phone_number must be in E.164 form: "+" then 7 to 15 digits, the first not 0';
    const lines = messageLines(
      [
        { at, kind: 'notice', text: 'renamed to Ann' },
        { at: at + 1000, kind: 'error', text: long },
      ],
      40,
    );
    expect(lines[0]!.kind).toBe('error');
    expect(lines[0]!.text).toMatch(/^\d\d:\d\d:\d\d ✗ phone_number must be in/);
    const errorText = lines
      .filter((l) => l.kind === 'error')
      .map((l, i) => (i === 0 ? l.text.slice(11) : l.text.trimStart()))
      .join(' ');
    expect(errorText).toBe(long);
    for (const line of lines) expect(line.text.length).toBeLessThanOrEqual(40);
    expect(lines.at(-1)!.text).toMatch(/^\d\d:\d\d:\d\d · renamed to Ann$/);
  });

  it('shows server text sanitised', () => {
    const [line] = messageLines([{ at: 0, kind: 'error', text: 'bad \u001b]0;pwned\u0007name' }], 80);
    expect(line!.text).not.toContain('\u001b');
  });
});
