// The whole-list search's controller alone, with no React and no dashboard: a real sandbox of 150
// contacts (two pages of the walk) and a real history file in a temp dir, where the index is kept.
// Every command reads the state the one before it left, as the key router runs a read's keys with
// no render in between; what the dashboard passes (busy, hidden) is read as it last gave it.
import { afterEach, describe, expect, it } from 'vitest';
import { type ContactSearchController as Controller, ContactSearchController, type ContactSearchOptions } from '../../../src/tui/search/contact-search-controller.js';
import { initialSearchState, type SearchState } from '../../../src/tui/search/search-state.js';
import type { FieldInput } from '../../../src/tui/state/field-text.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { setUpRecorder } from '../../helpers/recorder.js';
import { setUpSandbox } from '../../helpers/sandbox.js';

const COUNT = 150;
const SOURCE = 'contacts:search-controller-test#0123456789abcdef';

const ctx = setUpSandbox({ demoData: true, demoContacts: COUNT });

describe('ContactSearchController', () => {
  const files = setUpRecorder('search-controller-test', 'tickbook-search-controller-');
  const made: Controller[] = [];
  // Before the history file closes (hooks after a test run last registered first).
  afterEach(() => {
    for (const search of made.splice(0)) search.dispose();
  });

  function searchOf(given: Partial<ContactSearchOptions> = {}) {
    const options: ContactSearchOptions = {
      client: ctx.client,
      history: files.recorder,
      source: SOURCE,
      status: new StatusBoard(),
      busy: () => false,
      hidden: () => false,
      ...given,
    };
    const search = new ContactSearchController(options);
    made.push(search);
    return { search, options };
  }

  /** The state once it holds `test`: told by the controller's subscription, not polled, so a passing state (a walk begun) is not missed. */
  function until(search: Controller, test: (state: SearchState) => boolean, what: string): Promise<SearchState> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(search.getState().progress)}`));
      }, 5000);
      const check = () => {
        const state = search.getState();
        if (!test(state)) return;
        clearTimeout(timer);
        stop();
        resolve(state);
      };
      const stop = search.subscribe(check);
      check();
    });
  }

  const walked = (search: Controller) => until(search, (s) => s.progress.complete, 'the walk of the whole list');
  const type = (text: string): FieldInput => ({ kind: 'type', text });
  const usernames = (search: Controller) => search.getState().hits.map((hit) => hit.contact.username);
  const walkRequests = () => ctx.sb.logLines.filter((line) => / GET \/v1\/contacts\?limit=100\b/.test(line)).length;

  it('walks every contact into the index in the history file; a second search on that file has them before its walk reads a page', async () => {
    const { search } = searchOf();
    search.start();
    const state = await walked(search);
    expect(state.progress).toEqual({ indexed: COUNT, walked: undefined, expected: COUNT, complete: true, failed: undefined });
    expect(files.recorder.books()!.contacts.count(SOURCE)).toBe(COUNT);
    search.dispose();

    const again = searchOf().search;
    again.start();
    const opened = await until(again, (s) => s.progress.walked === 0, 'the walk begun');
    expect(opened.progress).toMatchObject({ indexed: COUNT, expected: COUNT, complete: false });
    again.open();
    again.edit(type('user:kenji'));
    expect(usernames(again)).toEqual(expect.arrayContaining(['kenji_tanaka', 'kenji_tanaka-2', 'kenji_tanaka-3']));
  });

  it('keys typed, moves and edits in a row, with no render between, each act on what the one before left', async () => {
    const { search } = searchOf();
    search.start();
    await walked(search);
    expect(search.isOpen()).toBe(false);
    search.open();
    search.edit(type('user:'));
    search.edit(type('kenji'));
    expect(search.current()).toMatchObject({ open: true, query: { value: 'user:kenji', cursor: 10 }, cursor: 0 });
    const hits = search.getState().hits;
    expect(hits.length).toBeGreaterThanOrEqual(3);
    search.move(1);
    search.move(1);
    expect(search.chosen()).toBe(hits[2]!.contact);
    // Past either end the highlight stays on the last match, or the first.
    search.move(hits.length);
    expect(search.chosen()).toBe(hits.at(-1)!.contact);
    search.move(-hits.length - 1);
    expect(search.chosen()).toBe(hits[0]!.contact);
    // Moving the query's cursor keeps the matches and the highlight; a new text starts from the first match.
    search.move(1);
    search.edit({ kind: 'edit', edit: 'left' });
    expect(search.current()).toMatchObject({ query: { value: 'user:kenji', cursor: 9 }, cursor: 1 });
    expect(search.getState().hits).toBe(hits);
    search.edit({ kind: 'edit', edit: 'end' });
    search.edit(type('_tanaka-3'));
    expect(search.current()).toMatchObject({ query: { value: 'user:kenji_tanaka-3' }, cursor: 0 });
    expect(search.chosen()?.username).toBe('kenji_tanaka-3');
    // Where it is in the list, newest first, in pages of 10.
    const listed = files.recorder.books()!.contacts.all(SOURCE);
    const at = listed.findIndex((c) => c.username === 'kenji_tanaka-3');
    expect(search.placeOf(() => true, 10)).toMatchObject({ contact: { username: 'kenji_tanaka-3' }, pageNumber: Math.floor(at / 10) + 1 });
    search.close();
    expect(search.isOpen()).toBe(false);
    expect(search.chosen()).toBeUndefined();
    expect(search.placeOf(() => true, 10)).toBeUndefined();
  });

  it('a contact put or gone is searched at once, with no walk, and kept in the file', async () => {
    const { search } = searchOf();
    search.start();
    await walked(search);
    const requests = walkRequests();
    const index = files.recorder.books()!.contacts;
    const first = index.all(SOURCE)[0]!;
    search.open();
    search.edit(type('quentin'));
    expect(search.getState().hits).toEqual([]);
    search.changed({ put: [{ ...first, displayName: 'Quentin Renamed' }] });
    expect(usernames(search)).toEqual([first.username]);
    expect(search.getState().progress.indexed).toBe(COUNT);
    expect(index.all(SOURCE)[0]!.displayName).toBe('Quentin Renamed');
    search.changed({ gone: [first.id] });
    expect(search.getState().hits).toEqual([]);
    expect(search.getState().progress.indexed).toBe(COUNT - 1);
    expect(index.count(SOURCE)).toBe(COUNT - 1);
    expect(walkRequests()).toBe(requests);
  });

  it('busy and hidden are asked as the dashboard last gave them: a walk held while paging goes on once it is not', async () => {
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const { search, options } = searchOf({
      busy: () => {
        asked();
        return true;
      },
    });
    search.start();
    // The first page is read at once; the second waits while the user pages.
    await waiting;
    expect(search.getState().progress).toMatchObject({ walked: 100, indexed: 100, complete: false });
    search.setOptions({ ...options, busy: () => false });
    expect((await walked(search)).progress.indexed).toBe(COUNT);

    search.open();
    search.edit(type('user:kenji'));
    const [hidden, ...rest] = search.getState().hits.map((hit) => hit.contact);
    search.setOptions({ ...options, busy: () => false, hidden: (id) => id === hidden!.id });
    search.edit(type('_'));
    expect(usernames(search)).not.toContain(hidden!.username);
    expect(usernames(search).sort()).toEqual(rest.map((c) => c.username).sort());
  });

  it('disposed before the index opened, it reads nothing and changes nothing', async () => {
    const requests = walkRequests();
    const { search: gone } = searchOf();
    gone.start();
    gone.dispose();
    const { search } = searchOf();
    search.start();
    await walked(search);
    // The second search's walk alone: two pages.
    expect(walkRequests() - requests).toBe(2);
    expect(gone.getState()).toBe(initialSearchState);
  });
});
