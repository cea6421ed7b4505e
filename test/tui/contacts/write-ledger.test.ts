// The writes not yet at the server: held back for an undo window, sent when due or on the way
// out, waited for with one deadline, and none lost to another's failure.
import { describe, expect, it } from 'vitest';
import { WriteLedger } from '../../../src/tui/contacts/write-ledger.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recorder() {
  const sent: string[] = [];
  const send = (name: string, ms = 0) => () => {
    sent.push(name);
    return sleep(ms);
  };
  return { sent, send };
}

describe('WriteLedger', () => {
  it('sends a held-back write when its time comes, not before; cancel forgets it', async () => {
    const ledger = new WriteLedger();
    const { sent, send } = recorder();
    ledger.defer('a', 40, send('a'));
    ledger.defer('b', 40, send('b'));
    expect(ledger.cancel('b')).toBe(true);
    expect(ledger.cancel('b')).toBe(false);
    await sleep(10);
    expect(sent).toEqual([]);
    await sleep(60);
    expect(sent).toEqual(['a']);
  });

  it('hold stops the clock; release starts it with the time that was left; settle still sends a held one', async () => {
    const ledger = new WriteLedger();
    const { sent, send } = recorder();
    ledger.defer('a', 60, send('a'));
    await sleep(30);
    expect(ledger.hold('a')).toBe(true);
    expect(ledger.hold('a')).toBe(false);
    await sleep(80);
    expect(sent).toEqual([]);
    const dueAt = ledger.release('a')!;
    expect(dueAt - ledger.now()).toBeGreaterThan(10);
    expect(dueAt - ledger.now()).toBeLessThanOrEqual(35);
    expect(ledger.release('a')).toBeUndefined();
    await sleep(50);
    expect(sent).toEqual(['a']);

    ledger.defer('b', 10_000, send('b'));
    ledger.hold('b');
    await ledger.settle(100);
    expect(sent).toEqual(['a', 'b']);
  });

  it('a second write under the same key sends the first at once, in order', () => {
    const ledger = new WriteLedger();
    const { sent, send } = recorder();
    ledger.defer('delete', 10_000, send('first'));
    ledger.defer('delete', 10_000, send('second'));
    expect(sent).toEqual(['first']);
    ledger.discard();
  });

  it('settle sends what is held back at once and waits for what is under way', async () => {
    const ledger = new WriteLedger();
    const { sent, send } = recorder();
    let done = false;
    void ledger.track(sleep(60).then(() => (done = true)));
    ledger.defer('delete', 10_000, send('delete', 30));
    const started = Date.now();
    await ledger.settle();
    expect(sent).toEqual(['delete']);
    expect(done).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('settle gives up at its deadline, and every caller shares that one deadline', async () => {
    const ledger = new WriteLedger();
    void ledger.track(new Promise(() => undefined));
    const started = Date.now();
    const first = ledger.settle(100);
    await sleep(50);
    const second = ledger.settle(100);
    await Promise.all([first, second]);
    expect(Date.now() - started).toBeLessThan(180);
  });

  it('a send that throws at once does not stop the others from being sent', async () => {
    const ledger = new WriteLedger();
    const { sent, send } = recorder();
    ledger.defer('bad', 10_000, () => {
      throw new Error('reducer blew up');
    });
    ledger.defer('good', 10_000, send('good'));
    await expect(ledger.settle()).resolves.toBeUndefined();
    expect(sent).toEqual(['good']);
  });

  it('a write that fails once leaving has begun is kept for the report, with what it was; one that failed before is not', async () => {
    const ledger = new WriteLedger();
    const refused = new Error('the server refused');
    await ledger.track(Promise.reject(new Error('seen on screen')), 'rename Ann').catch(() => undefined);
    ledger.defer('delete', 10_000, () => ledger.track(Promise.reject(refused), 'delete Bob').catch(() => undefined));
    void ledger.track(sleep(20).then(() => Promise.reject(new Error('unnamed'))));
    await ledger.settle(1000);
    expect(ledger.unfinished()).toEqual([{ what: 'delete Bob', failed: true, error: refused }]);
  });

  it('a write unanswered at the deadline is reported once as unconfirmed, and a second settle does not wait again', async () => {
    const ledger = new WriteLedger();
    let fail!: (error: Error) => void;
    void ledger.track(new Promise((_, reject) => (fail = reject)), 'delete Ann').catch(() => undefined);
    await ledger.settle(100);
    expect(ledger.unfinished()).toEqual([{ what: 'delete Ann', failed: false, waitedMs: 100 }]);
    // Cut off afterwards (its connection closed): already reported.
    fail(new Error('the connection was closed'));
    await sleep(10);
    const started = Date.now();
    await ledger.settle(100);
    expect(Date.now() - started).toBeLessThan(50);
    expect(ledger.unfinished()).toHaveLength(1);
  });

  it("a second way out waits only until the first one's deadline", async () => {
    const ledger = new WriteLedger();
    void ledger.track(new Promise(() => undefined), 'delete Ann');
    const started = Date.now();
    const first = ledger.settle(200);
    await sleep(120);
    // Not the same call: q waited, then the run ending settles again.
    void ledger.track(new Promise(() => undefined), 'rename Bob');
    await first;
    await ledger.settle(200);
    expect(Date.now() - started).toBeLessThan(380);
  });
});
