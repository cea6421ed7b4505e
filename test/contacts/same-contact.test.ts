// Whether an imported card or row is a contact the list holds already (src/contacts/same-contact.ts):
// a username the file gives decides with the number; one derived from a name decides only with the
// display name too, since two people's names can give one (李伟 and 王芳 on one home line, two long
// names cut at 32), and the next usernames tried are the same every time.
import { describe, expect, it } from 'vitest';
import { usernameFrom } from '../../src/contacts/import-candidate.js';
import { type HeldContact, placeOf } from '../../src/contacts/same-contact.js';

/** A list holding `contacts`, looked up as the import does (any case). */
const list = (contacts: Record<string, HeldContact>) => (username: string) => contacts[username.toLowerCase()];
const held = (phoneNumber: string, displayName: string | null = null): HeldContact => ({ phoneNumber, displayName });
const person = (username: string, phoneNumber: string, displayName?: string) => ({ username, phoneNumber, ...(displayName !== undefined && { displayName }) });

describe('placeOf', () => {
  it('a username the file gives: the same contact with the same number, whatever its name; refused with another number', () => {
    const there = list({ ada: held('+442079460958', 'Ada') });
    expect(placeOf(person('ADA', '+442079460958', 'Ada Lovelace'), false, there)).toEqual({ present: true });
    expect(placeOf(person('ada', '+442079460959'), false, there)).toEqual({ problem: 'username ada belongs to another contact (with another phone number)' });
    expect(placeOf(person('bob', '+442079460958'), false, there)).toEqual({ username: 'bob' });
  });

  it('a derived username is the same contact only with the same number and display name; another person on that number gets the next username', () => {
    const ivan = usernameFrom('Иван Петров', '+74951234567');
    expect(ivan).toBe(usernameFrom('Мария Петрова', '+74951234567'));
    const there = list({ [ivan]: held('+74951234567', 'Иван Петров') });
    expect(placeOf(person(ivan, '+74951234567', 'Иван Петров'), true, there)).toEqual({ present: true });
    expect(placeOf(person(ivan, '+74951234567', 'Мария Петрова'), true, there)).toEqual({ username: 'tel.74951234567.4567' });
    // One with no name on that number is another person too (a name would be lost).
    expect(placeOf(person(ivan, '+74951234567'), true, there)).toEqual({ username: 'tel.74951234567.4567' });
    // The third of the family, then again: each finds its own.
    const family = list({ [ivan]: held('+74951234567', 'Иван Петров'), 'tel.74951234567.4567': held('+74951234567', 'Мария Петрова') });
    expect(placeOf(person(ivan, '+74951234567', 'Ольга Петрова'), true, family)).toEqual({ username: 'tel.74951234567.4567-2' });
    expect(placeOf(person(ivan, '+74951234567', 'Мария Петрова'), true, family)).toEqual({ present: true });
    // Two rows with neither a name nor a username, one number: nothing tells them apart, nothing is lost.
    expect(placeOf(person('tel.447700900555', '+447700900555'), true, list({ 'tel.447700900555': held('+447700900555') }))).toEqual({ present: true });
  });

  it('long names cut at 32 to one username, and one name with another number (two John Smiths), are told apart the same way', () => {
    const long = usernameFrom('Christopher Alexander Montgomery', '+12125550187');
    expect(long).toBe(usernameFrom('Christopher Alexander Montgomery Jr', '+12125550187'));
    const there = list({ [long]: held('+12125550187', 'Christopher Alexander Montgomery') });
    expect(placeOf(person(long, '+12125550187', 'Christopher Alexander Montgomery Jr'), true, there)).toEqual({ username: 'christopher.alexander.montg.0187' });
    const smiths = list({ 'john.smith': held('+12125550101', 'John Smith'), 'john.smith.0102': held('+12125550102', 'John Smith') });
    expect(placeOf(person('john.smith', '+12125550102', 'John Smith'), true, smiths)).toEqual({ present: true });
    expect(placeOf(person('john.smith', '+12125550103', 'John Smith'), true, smiths)).toEqual({ username: 'john.smith.0103' });
  });

  it('gives up after 100 usernames, saying so', () => {
    const everyone = (username: string): HeldContact | undefined => (username.startsWith('tel.') ? held('+74951234567', username) : undefined);
    expect(placeOf(person('tel.74951234567', '+74951234567', 'Anna'), true, everyone)).toEqual({
      problem: 'username tel.74951234567 and the 99 made from it with its phone number belong to other contacts',
    });
  });
});
