// Whole-list search as plain functions: folding that keeps lengths (so highlights land on the text
// shown), field scopes, phone digits however they are spaced, ranking, and scripts beyond a-z.
import { describe, expect, it } from 'vitest';
import { ContactSearch, foldForSearch, parseQuery } from '../../src/contacts/search.js';

const people = [
  { id: 'jose', username: 'jose.alvarez', displayName: 'José Álvarez-Núñez', phoneNumber: '+34612345678' },
  { id: 'raj', username: 'raj_patel', displayName: null, phoneNumber: '+442079460321' },
  { id: 'joanna', username: 'joanna', displayName: 'Joanna Smith', phoneNumber: '+15551234567' },
  { id: 'li', username: 'li.wei', displayName: '李伟', phoneNumber: '+8613800138000' },
  { id: 'lukasz', username: 'lukasz_w', displayName: 'Łukasz Wiśniewski', phoneNumber: '+48221234567' },
  { id: 'bjorn', username: 'bjorn.h', displayName: 'Bjørn Halvorsen', phoneNumber: '+4791234567' },
  { id: 'majo', username: 'majo', displayName: 'Mary Jones', phoneNumber: '+15550009999' },
];
const search = new ContactSearch(people);
const ids = (query: string) => search.search(query).map((hit) => hit.contact.id);

describe('foldForSearch', () => {
  it('drops case and accents without changing the length, so ranges fit the text shown', () => {
    for (const text of ['José Álvarez-Núñez', 'Łukasz Wiśniewski', 'Bjørn', '李伟 🏄', 'ÅNGSTRÖM']) {
      expect(foldForSearch(text)).toHaveLength(text.length);
    }
    expect(foldForSearch('José Álvarez-Núñez')).toBe('jose alvarez-nunez');
    expect(foldForSearch('Łukasz Bjørn')).toBe('lukasz bjorn');
  });
});

describe('parseQuery', () => {
  it('reads name:, user: and phone: as scopes, and anything else as text', () => {
    expect(parseQuery('user: jo')).toEqual({ field: 'username', text: 'jo' });
    expect(parseQuery('NAME:ann')).toEqual({ field: 'name', text: 'ann' });
    expect(parseQuery('phone:+44')).toEqual({ field: 'phone', text: '+44' });
    expect(parseQuery('mailto:x')).toEqual({ field: undefined, text: 'mailto:x' });
  });
});

describe('ContactSearch', () => {
  it('finds names without accents or case, with the matched characters where they are shown', () => {
    expect(ids('nunez')).toEqual(['jose']);
    expect(search.search('ALVAREZ')[0]).toMatchObject({ field: 'name', ranges: [[5, 12]] });
    expect(ids('wisniewski')).toEqual(['lukasz']);
    expect(ids('bjorn')).toEqual(['bjorn']);
    expect(ids('伟')).toEqual(['li']);
  });

  it('puts a name that starts with the text before one that only holds it', () => {
    expect(ids('jo').slice(0, 2).sort()).toEqual(['joanna', 'jose']);
    expect(ids('jo')).toContain('majo');
    expect(ids('jo').indexOf('majo')).toBeGreaterThan(1);
  });

  it('tolerates a typo', () => {
    expect(ids('joana')).toContain('joanna');
  });

  it('matches phone numbers by their digits, however they are spaced, and highlights them after the +', () => {
    expect(ids('+44 20 7946')).toEqual(['raj']);
    expect(ids('7946-0321')).toEqual(['raj']);
    expect(search.search('4420')[0]).toMatchObject({ field: 'phone', ranges: [[1, 5]] });
  });

  it('narrows to one field with a scope, and shows a name-less contact by its username', () => {
    expect(ids('user:jo').sort()).toEqual(['bjorn', 'joanna', 'jose', 'majo']);
    expect(ids('name:raj')).toEqual(['raj']);
    expect(ids('phone:555').sort()).toEqual(['joanna', 'majo']);
    expect(ids('name:555')).toEqual([]);
  });

  it('matches nothing for an empty query, and keeps to the limit', () => {
    expect(ids('')).toEqual([]);
    expect(ids('   ')).toEqual([]);
    const many = new ContactSearch(Array.from({ length: 5000 }, (_, i) => ({ id: String(i), username: `p${i}`, displayName: `Person ${i}`, phoneNumber: `+1555${String(i).padStart(7, '0')}` })));
    expect(many.search('p', 50)).toHaveLength(50);
    expect(many.search('person 4242')[0]?.contact.id).toBe('4242');
  });
});
