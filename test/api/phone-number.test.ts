// The contract's phone number rule, as one function (parsePhoneNumber) that the sandbox, the
// client, the CLI and the dashboard's create form all apply: a trunk prefix "(0)" right after the
// country code is dropped; every other 0 is dialled and kept.
import { afterEach, describe, expect, it } from 'vitest';
import { parsePossiblePhoneNumber } from '../../src/api/possible-phone.js';
import { parsePhoneNumber } from '../../src/api/rules.js';
import { demoContacts } from '../../src/server/demo-data.js';
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

describe('parsePossiblePhoneNumber: the E.164 form, of a length its country code has', () => {
  /** Possible, though not all valid: the fictional ranges of examples and tests are taken. */
  const POSSIBLE: [written: string, stored: string][] = [
    ['+1 212 555 0187', '+12125550187'], // NANP 555-01xx
    ['+1 (415) 555-0132', '+14155550132'],
    ['+44 20 7946 0958', '+442079460958'], // Ofcom's drama numbers
    ['+44 7700 900123', '+447700900123'],
    ['+44 (0) 20 7946 0958', '+442079460958'],
    ['+61 491 570 156', '+61491570156'], // ACMA's fictional mobiles
    ['+39 06 1234 5678', '+390612345678'],
    ['+49 30 1234567', '+49301234567'],
    ['+81 3-1234-5678', '+81312345678'],
  ];
  it.each(POSSIBLE)('%j → %s', (written, stored) => {
    expect(parsePossiblePhoneNumber(written, 'phone_number')).toBe(stored);
  });

  const REFUSED: [written: string, problem: string][] = [
    ['+1-555-0123', 'option --phone is too short for +1: 7 digits after it, where numbers there have 10'],
    ['+1 (212) 204-34456', 'option --phone is too long for +1: 11 digits after it, where numbers there have 10'],
    ['+44 20 7946 09', 'option --phone is not a possible length for +44: 8 digits after it, where numbers there have 7, 9 or 10'],
    ['+39 12', 'option --phone must be in E.164 form: "+" then 7 to 15 digits, the first not 0'],
    ['+39 06 123', 'option --phone is too short for +39: 5 digits after it, where numbers there have 6 to 12'],
    ['+44 020 7946 0958', 'option --phone holds a prefix dialled only inside the country: after +44 the number is +442079460958'],
    ['+999 1234 5678', 'option --phone does not start with a country code in use (+99912345678)'],
    ['6101231234@pagersample.com', 'option --phone is not a phone number: it holds an "@" (an address, not a number)'],
    ['+1 212 555 0187 ext. 12', "option --phone is not a phone number: it ends in an extension (12), which a contact's number cannot have (E.164 has none)"],
    ['+1 212 555 0187 x12', "option --phone is not a phone number: it ends in an extension (12), which a contact's number cannot have (E.164 has none)"],
    ['tel:+12125550187', 'option --phone is not a phone number: it holds letters'],
    ['020 7946 0958', 'option --phone must be in E.164 form: "+" then 7 to 15 digits, the first not 0'],
  ];
  it.each(REFUSED)('%j is refused: %s', (written, problem) => {
    expect(parsePossiblePhoneNumber(written, 'option --phone')).toEqual({ problem });
  });

  it("the sandbox's demo contacts hold only possible numbers (a restore of them loses none)", () => {
    const contacts = demoContacts(1, Date.UTC(2026, 0, 1));
    expect(contacts.length).toBeGreaterThanOrEqual(60);
    for (const { username, phoneNumber } of contacts) expect(parsePossiblePhoneNumber(phoneNumber, username)).toBe(phoneNumber);
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
