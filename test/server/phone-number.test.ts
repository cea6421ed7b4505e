// The sandbox reads phone numbers as the contract says, over real HTTP: a trunk prefix "(0)" right
// after the country code is dropped, in a form body and in JSON, and the number is stored and
// returned so.
import { describe, expect, it } from 'vitest';
import { call, expectError, setUpSandboxCalls } from '../helpers/sandbox.js';

describe('phone_number with a trunk prefix', () => {
  const ctx = setUpSandboxCalls();

  const STORED: [username: string, written: string, stored: string][] = [
    ['uk', '+44 (0) 20 7946 0958', '+442079460958'],
    ['de', '+49 (0)30 1234567', '+49301234567'],
    ['ie', '+353(0)1 234 5678', '+35312345678'],
    ['ru', '+7 (0) 495 123 4567', '+74951234567'],
    ['unpaired', '+44 (0 20 7946 0958', '+4402079460958'],
    ['it', '+39 06 1234 5678', '+390612345678'],
    ['elsewhere', '+44 20 (0)7946 0958', '+4420079460958'],
  ];
  for (const [username, written, stored] of STORED) {
    it(`${JSON.stringify(written)} is stored and returned as ${stored}`, async () => {
      const created = await ctx.api.create({ username, phone_number: written });
      expect(created.status, created.text).toBe(201);
      expect(created.json.phone_number).toBe(stored);
      const got = await ctx.api.get(created.json.id);
      expect(got.json.phone_number).toBe(stored);
    });
  }

  it('in a JSON body too', async () => {
    const created = await call(ctx.sb.contactsUrl, '/v1/contacts', {
      auth: `Bearer ${ctx.sb.token}`,
      json: { username: 'json_uk', phone_number: '+44(0)20 7946 0958' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.phone_number).toBe('+442079460958');
  });

  it('a (0) with no country code before it: 400 invalid_parameters naming phone_number, nothing stored', async () => {
    const before = (await ctx.api.list('?limit=100')).json.data.length;
    expectError(await ctx.api.create({ username: 'typo', phone_number: '+(0)44 20 7946 0958' }), 400, 'invalid_parameters', /^phone_number must be in E\.164 form/);
    expect((await ctx.api.list('?limit=100')).json.data).toHaveLength(before);
  });

  it('a number E.164 allows but no country has (too short for +1) is stored as the contract says: tickbook\'s own commands refuse it, the server stands for the contract', async () => {
    const created = await ctx.api.create({ username: 'short_us', phone_number: '+1-555-0123' });
    expect(created.status, created.text).toBe(201);
    expect(created.json.phone_number).toBe('+15550123');
  });
});
