// The contract's phone number rule, as one function (parsePhoneNumber) that the sandbox, the
// client, the CLI and the dashboard's create form all apply: a trunk prefix "(0)" right after the
// country code is dropped; every other 0 is dialled and kept.
import { afterEach, describe, expect, it } from 'vitest';
import { parsePhoneNumber } from '../../src/api/rules.js';
import { apiError, closeAllServers, contactJson, httpServer, json, trackedClient } from '../helpers/servers.js';

const E164_RULE = 'phone_number must be in E.164 form: "+" then 7 to 15 digits, the first not 0';

/** Written as people write them, and the number that dials. */
const NORMALISED: [written: string, stored: string][] = [
  // The two numbers.
  ['+44 (0) 20 7946 0958', '+442079460958'],
  ['+49 (0)30 1234567', '+49301234567'],
  // A trunk prefix after a country code of one, two and three digits, with or without spaces
  // around it, dashes or dots beside it.
  ['+44(0)20 7946 0958', '+442079460958'],
  ['+44 (0)20 7946 0958', '+442079460958'],
  // Written otherwise than "(0)", it is parentheses round a digit, as the contract reads.
  ['+44 ( 0 ) 20 7946 0958', '+4402079460958'],
  ['+44-(0)-20-7946-0958', '+442079460958'],
  ['+44.(0).20.7946.0958', '+442079460958'],
  ['+353 (0)1 234 5678', '+35312345678'],
  ['+353(0)1 234 5678', '+35312345678'],
  ['+7 (0) 495 123 4567', '+74951234567'],
  ['+33 (0)1 23 45 67 89', '+33123456789'],
  ['  +44 (0) 20 7946 0958  ', '+442079460958'],
  ['+ 44 (0) 20 7946 0958', '+442079460958'],
  // A 0 written without parentheses is dialled: Italian numbers keep it.
  ['+39 06 1234 5678', '+390612345678'],
  ['+44 020 7946 0958', '+4402079460958'],
  // Parentheses round anything but a lone 0, or a (0) not straight after the country code, are
  // only parentheses: their digits stay.
  ['+39 (06) 1234 5678', '+390612345678'],
  ['+1 (415) 555-0132', '+14155550132'],
  ['+44 (00) 20 7946 0958', '+44002079460958'],
  ['+44 20 (0)7946 0958', '+4420079460958'],
  ['+4420 (0)7946 0958', '+4420079460958'],
  // Parentheses that do not pair up are dropped like any others: the contract has no rule for
  // them, and the sandbox and every client must agree.
  ['+44 (0 20 7946 0958', '+4402079460958'],
  ['+44 0) 20 7946 0958', '+4402079460958'],
  ['+44 ((0)) 20 7946 0958', '+4402079460958'],
  // Only one trunk prefix: a second (0) is a digit.
  ['+44 (0)(0)20 7946 0958', '+4402079460958'],
  // Plain numbers as before.
  ['+44 20 7946-0958', '+442079460958'],
  ['+14155550100', '+14155550100'],
];

describe('parsePhoneNumber', () => {
  for (const [written, stored] of NORMALISED) {
    it(`${JSON.stringify(written)} → ${stored}`, () => {
      expect(parsePhoneNumber(written, 'phone_number')).toBe(stored);
    });
  }

  const REFUSED: [written: string, problem: string][] = [
      // "(0)" where no country code stands before it.
    ['+(0)44 20 7946 0958', E164_RULE],
    ['(0)+44 20 7946 0958', E164_RULE],
    ['+44 (0)', E164_RULE],
    ['+0 20 7946 0958', E164_RULE],
    ['020 7946 0958', E164_RULE],
    ['not a phone', E164_RULE],
    ['', E164_RULE],
  ];
  for (const [written, problem] of REFUSED) {
    it(`${JSON.stringify(written)} is refused: ${problem}`, () => {
      expect(parsePhoneNumber(written, 'phone_number')).toEqual({ problem });
    });
  }

  it('words the problem after the name it is given', () => {
    expect(parsePhoneNumber('+(0)44 20', 'option --phone')).toEqual({
      problem: 'option --phone must be in E.164 form: "+" then 7 to 15 digits, the first not 0',
    });
  });
});

describe('the client checks and normalises the phone number before sending it', () => {
  afterEach(closeAllServers);

  it('sends the E.164 form, trunk prefix dropped, even to a server that stores what it gets', async () => {
    const server = await httpServer((req, res) => {
      const phone = new URLSearchParams(req.body).get('phone_number');
      json(res, 201, contactJson({ phone_number: phone }));
    });
    const client = trackedClient(server.url, { token: 't' });
    const contact = await client.createContact({ username: 'ada', phoneNumber: '+44 (0) 20 7946 0958' });
    expect(new URLSearchParams(server.requests[0]!.body).get('phone_number')).toBe('+442079460958');
    expect(contact.phoneNumber).toBe('+442079460958');
  });

  it('a number that is not one is refused without a request, naming phone_number', async () => {
    const server = await httpServer((_req, res) => json(res, 201, contactJson()));
    const client = trackedClient(server.url, { token: 't' });
    const rule = await apiError(client.createContact({ username: 'ada', phoneNumber: '+(0)44 20' }), 'invalid');
    expect(rule.message).toBe(E164_RULE);
    expect(rule.field).toBe('phone_number');
    expect(server.requests).toHaveLength(0);
  });
});
