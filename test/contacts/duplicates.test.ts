// Contacts that may be one person twice: grouped by phone number and by display name (without
// case or accents), never a contact alone, nameless contacts never grouped by name.
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/types.js';
import { duplicatesOf } from '../../src/contacts/duplicates.js';

const contact = (id: string, displayName: string | null, phoneNumber: string): Contact => ({
  id,
  username: `u_${id}`,
  displayName,
  phoneNumber,
  avatarUrl: null,
  conversationId: `cv_${id}`,
  lastActiveAt: null,
  createdAt: new Date(0),
});

describe('duplicatesOf', () => {
  it('groups by phone number, then by name without case, accents or extra spaces', () => {
    const a = contact('a', 'José  Álvarez', '+442079460958');
    const b = contact('b', 'jose alvarez', '+34612345678');
    const c = contact('c', 'Ann', '+442079460958');
    const d = contact('d', null, '+15550001111');
    const e = contact('e', null, '+15550002222');
    const f = contact('f', 'Ann Other', '+15550003333');
    expect(duplicatesOf([a, b, c, d, e, f])).toEqual([
      { by: 'phone', value: '+442079460958', contacts: [a, c] },
      { by: 'name', value: 'José  Álvarez', contacts: [a, b] },
    ]);
  });

  it('finds nothing in a list of distinct people, and nothing by name among the nameless', () => {
    expect(duplicatesOf([contact('a', null, '+1'), contact('b', null, '+2'), contact('c', 'X', '+3')])).toEqual([]);
  });
});
