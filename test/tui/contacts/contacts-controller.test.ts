// The contacts controller on its own, outside React, against the real sandbox over loopback HTTP:
// commands called back to back, with no render between them, each act on what the one before
// left (the keys of one read are handled so), and its lifecycle leaves nothing running.
import { afterEach, describe, expect, it } from 'vitest';
import { contactName } from '../../../src/api/types.js';
import { ContactsController } from '../../../src/tui/contacts/contacts-controller.js';
import { selectedContact } from '../../../src/tui/contacts/contacts-state.js';
import { WriteLedger } from '../../../src/tui/contacts/write-ledger.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { waitFor } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { startProxy } from '../../helpers/proxy.js';
import { TickbookClient } from '../../../src/api/client.js';

const ctx = setUpSandbox();
const made: ContactsController[] = [];
afterEach(() => {
  for (const controller of made.splice(0)) controller.dispose();
});

async function started(pageSize = 5, undoWindowMs = 5000) {
  const ledger = new WriteLedger();
  const changes: unknown[] = [];
  const controller = new ContactsController({ client: ctx.client, status: new StatusBoard(), pageSize, ledger, undoWindowMs, onChanged: (change) => changes.push(change) });
  made.push(controller);
  let draws = 0;
  controller.subscribe(() => draws++);
  controller.start();
  await waitFor(() => controller.getState().page !== undefined, 5000, 'the first page');
  return { controller, ledger, changes, draws: () => draws };
}

describe('ContactsController', () => {
  it('a move made while a walk is under way adds to it, though a rename landed meanwhile', async () => {
    // Walks fetch 100 contacts a request; those come slowly, the rename at once.
    const proxy = await startProxy(ctx.sb.contactsUrl, { delayMs: (req) => (req.url.includes('limit=100') ? 400 : 0) });
    const slow = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: ctx.sb.marketDataUrl, token: ctx.sb.token, apiKey: ctx.sb.apiKey });
    try {
      const controller = new ContactsController({ client: slow, status: new StatusBoard(), pageSize: 5, ledger: new WriteLedger(), undoWindowMs: 5000, onChanged: () => undefined });
      made.push(controller);
      controller.start();
      await waitFor(() => controller.getState().page !== undefined, 5000, 'the first page');
      const target = selectedContact(controller.getState())!;
      controller.startRename();
      controller.editRename({ kind: 'type', text: ' (walked)' });
      controller.submitRename();
      controller.go({ pages: 6 });
      await waitFor(() => controller.getState().page?.contacts[0]?.displayName?.endsWith(' (walked)') === true, 5000, 'the rename landed');
      await waitFor(async () => (await ctx.checker.getContact(target.id)).displayName?.endsWith(' (walked)') === true, 5000, 'the server to have the name');
      expect(controller.moving(), 'the walk still under way when the rename landed').toBe(true);
      controller.go({ pages: 1 });
      await waitFor(() => !controller.moving(), 10_000, 'the walk to land');
      expect(controller.getState().pageNumber).toBe(8);
      await ctx.checker.updateContact(target.id, target.displayName ?? null);
    } finally {
      await slow.close();
      await proxy.close();
    }
  });


  it('moves back to back act on the latest state: three j and a k leave the cursor on the third row', async () => {
    const { controller } = await started();
    const firstPage = (await ctx.checker.listContacts({ limit: 5 })).contacts;
    for (const rows of [1, 1, 1, -1]) controller.go({ rows });
    expect(controller.getState().cursor).toBe(2);
    expect(selectedContact(controller.getState())?.id).toBe(firstPage[2]!.id);
  });

  it('a rename typed and sent with no render between the keys sends what was typed, on the row the moves left', async () => {
    const { controller, changes } = await started();
    const target = (await ctx.checker.listContacts({ limit: 5 })).contacts[1]!;
    controller.go({ rows: 1 });
    controller.startRename();
    controller.editRename({ kind: 'edit', edit: 'kill-start' });
    controller.editRename({ kind: 'type', text: 'Renamed Back To Back' });
    controller.submitRename();
    // Shown at once, before the server answers.
    expect(contactName(selectedContact(controller.getState())!)).toBe('Renamed Back To Back');
    await waitFor(async () => (await ctx.checker.getContact(target.id)).displayName === 'Renamed Back To Back', 5000, 'the server to have the name');
    expect(changes).toContainEqual({ put: [expect.objectContaining({ id: target.id, displayName: 'Renamed Back To Back' })] });
    // Put back for the other tests.
    await ctx.checker.updateContact(target.id, target.displayName ?? null);
  });

  it('a delete confirmed and undone back to back sends nothing; its undo window is the ledger\'s', async () => {
    const { controller, ledger } = await started();
    const target = (await ctx.checker.listContacts({ limit: 5 })).contacts[0]!;
    controller.askDelete();
    controller.confirmDelete();
    expect(controller.getState().pendingDelete?.contact.id).toBe(target.id);
    controller.undoDelete();
    expect(controller.getState().pendingDelete).toBeUndefined();
    await ledger.settle();
    expect((await ctx.checker.getContact(target.id)).id).toBe(target.id);
  });

  it('an unchanged state tells no one: a move past the first row is no change, and nothing is drawn for it', async () => {
    const { controller, draws } = await started();
    const before = draws();
    const state = controller.getState();
    controller.go({ rows: -1 });
    expect(controller.getState()).toBe(state);
    expect(draws()).toBe(before);
  });
});
