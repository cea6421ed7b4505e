// The CSV formula guard (src/contacts/formula-guard.ts): one rule the export writes with and the
// import undoes. Over many generated strings (fixed seeds): every one comes back as it went out,
// through the pure pair and through the export's own writer and a CSV reader; and no cell a
// spreadsheet could see, splitting the written file on `,`, `;` or a tab, starts a formula.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvWriteOptions } from '../../src/contacts/csv-columns.js';
import { guardCell, unguardCell } from '../../src/contacts/formula-guard.js';
import { sequence } from '../../src/server/random.js';

/** What a spreadsheet runs as a formula when a cell starts with it. */
const STARTERS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];
/** Characters that make the rule's cases, weighted towards them, and a few plain ones. */
const ALPHABET = [...STARTERS, "'", "'", "'", ',', ';', '\n', '"', ' ', 'a', 'B', '1', 'é', '😀'];
/**
 * A cell a spreadsheet runs: a formula character first, or after tabs and line breaks (which some
 * drop: why a cell starting with a tab or a carriage return is guarded too).
 */
const RUNS = /^[\t\r\n]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A cell start (the cell's, or after a separator or line break) followed by a formula character. */
const FORMULA_AT_A_CELL_START = /(?:^|[,;\t\r\n])[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** `count` strings of 0 to 11 characters from ALPHABET. */
function strings(seed: number, count: number): string[] {
  const next = sequence(seed);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(''));
}

/**
 * A file split into cells as a spreadsheet does on `delimiter`: a quote counts only at the start of
 * a cell (`""` inside is one quote); what follows its closing quote is kept as it is.
 */
function spreadsheetCells(text: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (c === delimiter || c === '\n' || c === '\r') {
      cells.push(cell);
      cell = '';
      atStart = true;
    } else {
      cell += c;
      atStart = false;
    }
  }
  cells.push(cell);
  return cells;
}

const NAMED: [cell: string, written: string][] = [
  ['=1+1', "'=1+1"],
  ["'=kept", "''=kept"],
  ["''+1", "'''+1"],
  ['\uFF1D1+1', "'\uFF1D1+1"],
  ['+442079460958', "'+442079460958"],
  ['Bob;=1+1;x', "Bob;'=1+1;x"],
  ['a,@b\t-c', "a,'@b\t'-c"],
  ["it's", "it's"],
  ["'", "'"],
  ['a=b', 'a=b'],
  ['', ''],
];

describe('guardCell and unguardCell', () => {
  it('the named cases: written as shown, read back as they were', () => {
    for (const [cell, written] of NAMED) {
      expect(guardCell(cell), JSON.stringify(cell)).toBe(written);
      expect(unguardCell(written), JSON.stringify(written)).toBe(cell);
    }
  });

  it('every generated string comes back as it went out, and none guarded starts a formula at any cell start', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const cell of strings(seed, 4000)) {
        const written = guardCell(cell);
        expect(unguardCell(written), `seed ${seed}: ${JSON.stringify(cell)}`).toBe(cell);
        expect(FORMULA_AT_A_CELL_START.test(written), `seed ${seed}: ${JSON.stringify(written)}`).toBe(false);
      }
    }
  });
});

describe("the export's CSV", () => {
  /** Rows of generated cells under the export's columns, written as an export writes them. */
  function written(seed: number): { rows: Record<string, string>[]; text: string } {
    const cells = strings(seed, 300 * CSV_COLUMNS.length);
    const rows = Array.from({ length: 300 }, (_, r) => Object.fromEntries(CSV_COLUMNS.map((column, c) => [column, cells[r * CSV_COLUMNS.length + c]!])));
    return { rows, text: stringify(rows, csvWriteOptions()) };
  }

  it('read as the import reads it, every cell unguarded is the cell written', () => {
    for (const seed of [11, 12, 13]) {
      const { rows, text } = written(seed);
      const back = (parse(text, { columns: true, relax_quotes: true, relax_column_count: true }) as Record<string, string>[]).map((row) =>
        Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, unguardCell(cell)])),
      );
      expect(back).toEqual(rows);
    }
  });

  it('split on ",", ";" or a tab as a spreadsheet splits, no cell starts a formula; a cell holding a separator is quoted', () => {
    for (const seed of [21, 22, 23]) {
      const { text } = written(seed);
      for (const delimiter of [',', ';', '\t']) {
        for (const cell of spreadsheetCells(text, delimiter)) {
          expect(RUNS.test(cell), `seed ${seed}, split on ${JSON.stringify(delimiter)}: ${JSON.stringify(cell)}`).toBe(false);
        }
      }
    }
    const { text } = { text: stringify([{ id: 'a;b', username: 'c\td', display_name: 'e,f', phone_number: 'g' }], csvWriteOptions()) };
    expect(text.split('\r\n')[1]).toBe('"a;b","c\td","e,f",g,,,');
  });
});
