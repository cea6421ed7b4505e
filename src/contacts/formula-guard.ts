// CSV formula injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage
// return, or their full-width forms, which Apple Numbers reads as the plain ones) as a formula. An
// export writes such a cell after a `'`, so that it shows as text, and an import takes exactly
// that `'` away again: one rule both ways, so that every string comes back as it went out.
//
// A cell starts where the spreadsheet says it does, and one that splits lines on another separator
// than ours (`;` in much of Europe, a tab) starts cells inside ours: quoting a cell does not help
// there, since a quote counts only at the start of the cell it sees (`ct_1,ada,"Bob;=1+1"` split
// on `;` is `ct_1,ada,"Bob` then `=1+1"`). So every place a cell could start is guarded: the start
// of ours and the place after each `,`, `;`, tab or line break in it.
//
// Save one: a cell that is a phone number and nothing else (`+442079460958`, `+44 20 7946 0958`),
// written as it is, so that a reader other than a spreadsheet gets the number, not `'+44…`. A
// sign and then only digits, spaces, dashes, dots and parentheses name nothing and call nothing:
// a spreadsheet makes a number of it (or a sum of numbers), it runs nothing. It must be the whole
// cell, where a spreadsheet splitting on `,` sees exactly it; inside a cell, the cell a spreadsheet
// splitting on `;` sees goes on past it (the closing quote and the rest of the line), and the
// first cell of a line goes on to the next `;` or tab: both are guarded as any other.

/** Where a spreadsheet may start a cell: the start of ours, or after a separator or line break. */
const CELL_START = String.raw`(?<=^|[,;\t\r\n])`;
/**
 * What a cell a spreadsheet would run starts with: after any `'` the guard put there, and after
 * any `"`, which a spreadsheet splitting on `;` may take for the quote that opens a cell.
 */
const FORMULA = String.raw`['"]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]`;
/** A `'` goes before what is a formula, and before what is already guarded, so it is undone exactly. */
const TO_GUARD = new RegExp(`${CELL_START}(?=${FORMULA})`, 'g');
/** The `'` the guard put there: one, before a formula or before a `'` it kept. */
const GUARDED = new RegExp(`${CELL_START}'(?=${FORMULA})`, 'g');
/** A phone number, the whole cell: `+` or `-`, then a phone number's digits and separators, a digit among them. */
const PHONE = /^[+-](?=[ .()-]*[0-9])[0-9 .()-]*$/;

/**
 * The cell as an export writes it: a `'` wherever a spreadsheet (splitting on `,`, `;` or tabs)
 * would start a cell with a formula, or with `'`s and then one (`'=kept` is written `''=kept`);
 * a phone number is written as it is, unless it begins a line (`lineStart`).
 */
export const guardCell = (cell: string, lineStart = false): string => (!lineStart && PHONE.test(cell) ? cell : cell.replace(TO_GUARD, "'"));

/**
 * The cell as it was before guardCell: unguardCell(guardCell(s)) is s for every string s, a
 * phone number written as it is having no `'` to take off.
 */
export const unguardCell = (cell: string): string => cell.replace(GUARDED, '');

/**
 * Cells holding a separator (`,` ours; `;` and a tab other spreadsheets' own) are always quoted:
 * a spreadsheet splitting on any of them that honours quotes keeps the cell whole.
 */
export const QUOTED_MATCH: readonly string[] = [',', ';', '\t'];
