// Counted moves through the whole list: the page-and-row arithmetic as plain functions, and walks
// against a real sandbox holding 2,000 contacts in a known order, so every landing is checked by
// fetching the page it names and reading which contact the cursor is on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TickbookClient } from '../../../src/api/client.js';
import type { ContactPage, PageQuery } from '../../../src/api/types.js';
import { ContactWalk, type Landing, movedByPages, pageEnd, pageOfRow, pageStart, placeOf, WALK_LIMIT, type WalkOrigin } from '../../../src/tui/contacts/contact-walk.js';
import { positionOf, startManyContactsSandbox } from '../../helpers/many-contacts.js';
import { sandboxClient, type TestSandbox } from '../../helpers/sandbox.js';

const COUNT = 2000;
const PAGE = 31;

describe('where a row is', () => {
  const origin = { rows: 31, pageSize: 31 };
  it('counts rows on the page, after it (from the top of each page) and before it (from the bottom)', () => {
    expect(placeOf(origin, 0)).toEqual({ page: 0, row: 0 });
    expect(placeOf(origin, 30)).toEqual({ page: 0, row: 30 });
    expect(placeOf(origin, 31)).toEqual({ page: 1, row: 0 });
    expect(placeOf(origin, 130)).toEqual({ page: 4, row: 6 });
    expect(placeOf(origin, -1)).toEqual({ page: -1, row: 0 });
    expect(placeOf(origin, -31)).toEqual({ page: -1, row: 30 });
    expect(placeOf(origin, -32)).toEqual({ page: -2, row: 0 });
  });

  it('counts a page on screen that is shorter or longer than a page (rows deleted, the pane grown) as it is', () => {
    const short = { rows: 20, pageSize: 31 };
    expect(placeOf(short, 20)).toEqual({ page: 1, row: 0 });
    expect(pageStart(short, 2)).toBe(51);
    expect(pageEnd(short, 0)).toBe(19);
    expect(pageStart(short, -1)).toBe(-31);
  });

  it('moves by pages onto the top of a page after, the bottom of one before, from wherever the last move was going', () => {
    expect(movedByPages(origin, { row: 5, clamp: 'row' }, 1)).toEqual({ row: 31, clamp: 'page' });
    expect(movedByPages(origin, { row: 5, clamp: 'row' }, 100)).toEqual({ row: 31 * 100, clamp: 'page' });
    expect(movedByPages(origin, { row: 5, clamp: 'row' }, -1)).toEqual({ row: -1, clamp: 'page' });
    expect(movedByPages(origin, { row: 40, clamp: 'page' }, -1)).toEqual({ row: 30, clamp: 'page' });
    expect(movedByPages(origin, { row: -1, clamp: 'page' }, -30)).toEqual({ row: -31 * 31 + 30, clamp: 'page' });
  });
});

describe('the page a row of the whole list is on (a search hit shown in the list)', () => {
  const list = Array.from({ length: 100 }, (_, i) => i);
  it('numbers it as paging from the first row would, and gives the rows before that page, nearest first', () => {
    expect(pageOfRow(list, 0, 32)).toEqual({ pageNumber: 1, before: [] });
    expect(pageOfRow(list, 31, 32)).toEqual({ pageNumber: 1, before: [] });
    expect(pageOfRow(list, 32, 32)).toEqual({ pageNumber: 2, before: [31, 30, 29] });
    expect(pageOfRow(list, 70, 32)).toEqual({ pageNumber: 3, before: [63, 62, 61] });
    expect(pageOfRow(list, 99, 6)).toEqual({ pageNumber: 17, before: [95, 94, 93] });
    expect(pageOfRow(list, 7, 6)).toEqual({ pageNumber: 2, before: [5, 4, 3] });
    expect(pageOfRow(list, 5, 0)).toEqual({ pageNumber: 6, before: [4, 3, 2] });
  });
});

describe('walking the cursors of a real sandbox', () => {
  let sb: TestSandbox;
  let client: TickbookClient;
  /** Every request a walk made. */
  let asked: PageQuery[];

  beforeAll(async () => {
    sb = await startManyContactsSandbox(COUNT);
    client = sandboxClient(sb);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });

  const fetch = (query: PageQuery, signal: AbortSignal) => {
    asked.push(query);
    return client.listContacts(query, { signal });
  };

  /** The walk's origin for the page of `limit` rows starting at list position `start`. */
  async function originAt(start: number, pageNumber: number): Promise<WalkOrigin> {
    const query: PageQuery = start > 0 ? { limit: PAGE, startingAfter: await idAt(start - 1) } : { limit: PAGE };
    const page = await client.listContacts(query);
    expect(positionOf(page.contacts[0]!)).toBe(start);
    asked = [];
    return {
      base: { limit: PAGE },
      firstId: page.contacts[0]!.id,
      lastId: page.contacts.at(-1)!.id,
      rows: page.contacts.length,
      pageSize: PAGE,
      pageNumber,
      hasNext: page.next !== undefined,
      hasPrevious: page.previous !== undefined,
    };
  }

  const ids = new Map<number, string>();
  async function idAt(position: number): Promise<string> {
    if (ids.size === 0) for await (const c of client.allContacts({ limit: 100 })) ids.set(positionOf(c), c.id);
    return ids.get(position)!;
  }

  /** The list position of the contact a landing puts the cursor on, and the page it shows. */
  async function landedOn(origin: WalkOrigin, landing: Landing, start: number): Promise<{ position: number; first: number; pageNumber: number }> {
    if (landing.kind === 'here') return { position: start + landing.cursor, first: start, pageNumber: origin.pageNumber };
    const page = (await client.listContacts(landing.query)).contacts;
    expect(page.length).toBeGreaterThan(0);
    const row = typeof landing.cursor === 'number' ? landing.cursor : page.length - 1 - landing.cursor.fromEnd;
    const at = Math.max(0, Math.min(page.length - 1, row));
    return { position: positionOf(page[at]!), first: positionOf(page[0]!), pageNumber: landing.pageNumber };
  }

  it('100 rows down from the top lands on row 100 of the list, on the page that holds it, walking a full API page at a time', async () => {
    const origin = await originAt(0, 1);
    const walk = new ContactWalk(origin);
    const landing = await walk.land({ row: 100, clamp: 'row' }, fetch, new AbortController().signal);
    expect(await landedOn(origin, landing, 0)).toEqual({ position: 100, first: 93, pageNumber: 4 });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.limit).toBe(WALK_LIMIT);
  });

  it('within the page it lands here without a request; onto the next page it needs none either', async () => {
    const origin = await originAt(0, 1);
    const walk = new ContactWalk(origin);
    expect(await walk.land({ row: 30, clamp: 'row' }, fetch, new AbortController().signal)).toEqual({ kind: 'here', cursor: 30 });
    const next = await walk.land({ row: 31, clamp: 'row' }, fetch, new AbortController().signal);
    expect(await landedOn(origin, next, 0)).toEqual({ position: 31, first: 31, pageNumber: 2 });
    expect(asked).toHaveLength(0);
  });

  it('100 pages on from page 1 of 2,000 stops at the top of the last page (65), and a further walk reuses the cursors it has', async () => {
    const origin = await originAt(0, 1);
    const walk = new ContactWalk(origin);
    const goal = movedByPages(origin, { row: 0, clamp: 'row' }, 100);
    const landing = await walk.land(goal, fetch, new AbortController().signal);
    const lastFirst = Math.floor((COUNT - 1) / PAGE) * PAGE;
    expect(await landedOn(origin, landing, 0)).toEqual({ position: lastFirst, first: lastFirst, pageNumber: 65 });
    // The walk to the end took the list 100 at a time: 20 requests, not one per page.
    expect(asked.length).toBe(Math.ceil((COUNT - PAGE) / WALK_LIMIT));
    asked = [];
    const end = await walk.land({ row: Number.POSITIVE_INFINITY, clamp: 'row' }, fetch, new AbortController().signal);
    expect(await landedOn(origin, end, 0)).toEqual({ position: COUNT - 1, first: lastFirst, pageNumber: 65 });
    expect(asked).toHaveLength(0);
  });

  it('5,000 rows down stops on the last contact; 10 pages on stops at page 11 exactly', async () => {
    const origin = await originAt(0, 1);
    const clampRow = await new ContactWalk(origin).land({ row: 5000, clamp: 'row' }, fetch, new AbortController().signal);
    expect((await landedOn(origin, clampRow, 0)).position).toBe(COUNT - 1);
    const ten = await new ContactWalk(origin).land(movedByPages(origin, { row: 7, clamp: 'row' }, 10), fetch, new AbortController().signal);
    expect(await landedOn(origin, ten, 0)).toEqual({ position: 310, first: 310, pageNumber: 11 });
  });

  it('up from the middle: 100 rows back, 30 pages back to the bottom of a page, and past the start onto the first row', async () => {
    const start = 31 * 40;
    const origin = await originAt(start, 41);
    const up = await new ContactWalk(origin).land({ row: -100, clamp: 'row' }, fetch, new AbortController().signal);
    expect((await landedOn(origin, up, start)).position).toBe(start - 100);
    const pages = await new ContactWalk(origin).land(movedByPages(origin, { row: 3, clamp: 'row' }, -30), fetch, new AbortController().signal);
    expect(await landedOn(origin, pages, start)).toEqual({ position: start - 29 * 31 - 1, first: start - 30 * 31, pageNumber: 11 });
    const past = await new ContactWalk(origin).land({ row: -5000, clamp: 'row' }, fetch, new AbortController().signal);
    expect(await landedOn(origin, past, start)).toEqual({ position: 0, first: 0, pageNumber: 1 });
  });

  it('one page back needs no walk; on the first page there is nowhere further up', async () => {
    const origin = await originAt(62, 3);
    const back = await new ContactWalk(origin).land({ row: -1, clamp: 'page' }, fetch, new AbortController().signal);
    expect(await landedOn(origin, back, 62)).toEqual({ position: 61, first: 31, pageNumber: 2 });
    expect(asked).toHaveLength(0);
    const top = await originAt(0, 1);
    expect(await new ContactWalk(top).land({ row: -10, clamp: 'row' }, fetch, new AbortController().signal)).toEqual({ kind: 'here', cursor: 0 });
  });

  it('a walk whose signal is aborted stops with the abort, asking nothing more', async () => {
    const origin = await originAt(0, 1);
    const abort = new AbortController();
    const walk = new ContactWalk(origin);
    const going = walk.land({ row: Number.POSITIVE_INFINITY, clamp: 'row' }, fetch, abort.signal, (walked) => {
      if (walked >= 300) abort.abort();
    });
    await expect(going).rejects.toThrow();
    expect(asked).toHaveLength(3);
  });
});

describe('two walks of one page at once', () => {
  it('a walk overtaken while its request was out adds nothing: the cursors stay in list order, none twice', async () => {
    const origin: WalkOrigin = { base: { limit: 3 }, firstId: 'p0', lastId: 'p2', rows: 3, pageSize: 3, pageNumber: 1, hasNext: true, hasPrevious: false };
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}` }));
    /** A list after the page: r0, r1, …; every request answered when the test says. */
    const answers: (() => void)[] = [];
    const fetch = (query: PageQuery) =>
      new Promise<ContactPage>((resolve) => {
        const from = query.startingAfter === 'p2' ? 0 : Number(query.startingAfter!.slice(1)) + 1;
        const contacts = rows.slice(from, from + query.limit!) as unknown as ContactPage['contacts'];
        answers.push(() => resolve({ contacts, hasMore: from + query.limit! < rows.length, next: undefined, previous: undefined }));
      });
    const walk = new ContactWalk(origin);
    const first = new AbortController();
    const overtaken = walk.land({ row: 500, clamp: 'row' }, fetch, first.signal).then(
      () => 'landed',
      () => 'stopped',
    );
    // The first request is answered just as the walk is overtaken by a longer one.
    const second = walk.land({ row: 700, clamp: 'row' }, fetch, new AbortController().signal);
    first.abort();
    while (answers.length > 0) {
      answers.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await overtaken).toBe('stopped');
    const landing = await second;
    // Row 700 of the list is r697 (three rows on the page on screen); its page starts at r696.
    expect(landing).toEqual({ kind: 'page', query: { limit: 3, startingAfter: 'r695' }, pageNumber: 234, cursor: 1 });
  });
});
