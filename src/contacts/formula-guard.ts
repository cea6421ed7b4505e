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

/**
 * The cell as an export writes it: a `'` wherever a spreadsheet (splitting on `,`, `;` or tabs)
 * would start a cell with a formula, or with `'`s and then one; `'=kept` is written `''=kept`.
 */
export const guardCell = (cell: string): string => cell.replace(TO_GUARD, "'");

/** The cell as it was before guardCell: unguardCell(guardCell(s)) is s for every string s. */
export const unguardCell = (cell: string): string => cell.replace(GUARDED, '');

/**
 * Cells holding a separator (`,` ours; `;` and a tab other spreadsheets' own) are always quoted:
 * a spreadsheet splitting on any of them that honours quotes keeps the cell whole.
 */
export const QUOTED_MATCH: readonly string[] = [',', ';', '\t'];
