// vCard text for the tests of src/contacts/vcard-*.ts: cards of CRLF lines, and the fields a card
// is expected to read as (vcard-fields.ts's CardFields), written short.
export const crlf = (...lines: string[]): string => `${lines.join('\r\n')}\r\n`;
export const card = (...lines: string[]) => crlf('BEGIN:VCARD', ...lines, 'END:VCARD');
export const tel = (value: string, kind: { mobile?: boolean; preferred?: boolean } = {}) => ({ value, ...kind });
export const fields = (name: string | undefined, phones: ReturnType<typeof tel>[], more: { nickname?: string; photo?: string; uid?: string } = {}) => ({
  name,
  nickname: more.nickname,
  phones,
  photo: more.photo,
  uid: more.uid,
});
