// A contact whose name is wider than the pane: the delete question keeps its "?" and the undo
// offer its countdown, the name being what is cut. Before, both were cut off the end, and the
// offer's seconds with them (the e2e tests met it whenever the newest demo contact was
// a.very.long.username_1234567890).
import { afterEach, describe, expect, it } from 'vitest';
import { mountInkDashboard } from '../helpers/ink-terminal.js';
import { setUpSandbox } from '../helpers/sandbox.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('a name wider than the contacts pane', () => {
  const ctx = setUpSandbox({ demoData: false });

  it('Delete …? keeps its question mark; deleted … · u: undo (Ns) keeps its countdown', async () => {
    // 64 characters, the longest a display name may be; the pane has 56 columns inside.
    const name = 'Maximilian Alexander von Hohenberg-Schwarzenfeld der Jüngere III';
    await ctx.checker.createContact({ username: 'a.very.long.username_1234567890', phoneNumber: '+14155550123', displayName: name });
    const mounted = await mountInkDashboard(ctx.client);
    cleanup = mounted.unmount;
    await mounted.keyboard.type('d');
    await mounted.until((f) => /y: delete/.test(f), 'the delete prompt');
    const question = mounted.frame().split('\n').find((line) => line.includes('Delete Maximilian'))!;
    // Up to the pane's right border, the ticker beside it.
    expect(question).toMatch(/┃ Delete Maximilian .*…\? ┃/);
    await mounted.keyboard.type('y');
    await mounted.until((f) => /deleted Maximilian/.test(f), 'the undo offer');
    const offer = mounted.frame().split('\n').find((line) => line.includes('deleted Maximilian'))!;
    expect(offer).toMatch(/┃ deleted Maximilian .*… · u: undo \(\d+s\) ┃/);
    await mounted.keyboard.type('u');
  });
});
