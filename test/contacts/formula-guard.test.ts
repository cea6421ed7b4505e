// The CSV formula guard (src/contacts/formula-guard.ts): one rule the export writes with and the
// import undoes. Over many generated strings (fixed seeds): every one comes back as it went out,
// through the pure pair and through the export's own writer and a CSV reader; and no cell a
// spreadsheet could see, splitting the written file on `,`, `;` or a tab, starts a formula, but
// for a phone number written as it is, which is a number to a spreadsheet and runs nothing.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvWriteOptions } from '../../src/contacts/csv-columns.js';
import { guardCell, unguardCell } from '../../src/contacts/formula-guard.js';
import { sequence } from '../../src/server/random.js';

/** What a spreadsheet runs as a formula when a cell starts with it. */
const STARTERS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];
/** Characters that make the rule's cases, weighted towards them, and a few plain ones. */
const ALPHABET = [...STARTERS, "'", "'", "'", ',', ';', '\n', '"', ' ', 'a', 'B', 'é', '😀', '1', '4', '0', '(', ')', '.'];
/**
 * A cell a spreadsheet runs: a formula character first, or after tabs and line breaks (which some
 * drop: why a cell starting with a tab or a carriage return is guarded too).
 */
const RUNS = /^[\t\r\n]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A cell start (the cell's, or after a separator or line break) followed by a formula character. */
const FORMULA_AT_A_CELL_START = /(?:^|[,;\t\r\n])[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A phone number as a whole cell: a sign, then only digits, spaces, dashes, dots and parentheses, a digit among them. */
const PHONE_NUMBER = /^[+-][0-9 .()-]*$/;
const isPhoneNumber = (cell: string) => PHONE_NUMBER.test(cell) && /[0-9]/.test(cell);

/** `count` strings of 0 to 11 characters from ALPHABET. */
function strings(seed: number, count: number): string[] {
  const next = sequence(seed);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(''));
}

/**
 * `count` strings shaped like phone numbers (a sign, then digits and separators), one in three
 * with a character of ALPHABET put in somewhere: the edge of the rule that leaves a number alone.
 */
function phoneLike(seed: number, count: number): string[] {
  const next = sequence(seed);
  const pick = (from: readonly string[]) => from[Math.floor(next() * from.length)]!;
  return Array.from({ length: count }, () => {
    const chars = [pick(['+', '-', '+']), ...Array.from({ length: Math.floor(next() * 12) }, () => pick(['0', '1', '9', ' ', '-', '.', '(', ')']))];
    if (next() < 1 / 3) chars.splice(Math.floor(next() * (chars.length + 1)), 0, pick(ALPHABET));
    return chars.join('');
  });
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
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      }
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
  // A phone number, the whole cell, is written as it is: a number, which runs nothing.
  ['+442079460958', '+442079460958'],
  ['+44 20 7946 0958', '+44 20 7946 0958'],
  ['+1 (212) 555-0187', '+1 (212) 555-0187'],
  ['-12.5', '-12.5'],
  // Anything more, or no digit, is guarded as before.
  ["'+442079460958", "''+442079460958"],
  ['+44 20 7946 0958 x', "'+44 20 7946 0958 x"],
  ['+1+1', "'+1+1"],
  ['+', "'+"],
  ['-()', "'-()"],
  ['\uFF0B442079460958', "'\uFF0B442079460958"],
  // Inside a cell, a spreadsheet splitting on `;` sees more than the number: guarded.
  ['Bob;+44 20', "Bob;'+44 20"],
  ['+44\n20', "'+44\n20"],
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

  it('a phone number that begins a line is guarded: a spreadsheet splitting on ";" or tabs reads on past our ","', () => {
    expect(guardCell('+442079460958', true)).toBe("'+442079460958");
    expect(unguardCell("'+442079460958")).toBe('+442079460958');
    expect(guardCell('ct_1', true)).toBe('ct_1');
  });

  it('every generated string comes back as it went out, and none guarded starts a formula at any cell start but a phone number, whole', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const cell of [...strings(seed, 4000), ...phoneLike(seed, 1000)]) {
        for (const lineStart of [false, true]) {
          const written = guardCell(cell, lineStart);
          const shown = `seed ${seed}${lineStart ? ', at a line start' : ''}: ${JSON.stringify(written)}`;
          expect(unguardCell(written), shown).toBe(cell);
          if (FORMULA_AT_A_CELL_START.test(written)) {
            expect(!lineStart && isPhoneNumber(written) && written === cell, shown).toBe(true);
          }
        }
      }
    }
    // The generated strings hold phone numbers to leave alone, and near misses.
    const shaped = phoneLike(1, 1000);
    expect(shaped.filter(isPhoneNumber).length).toBeGreaterThan(400);
    expect(shaped.filter((cell) => !isPhoneNumber(cell)).length).toBeGreaterThan(200);
  });
});

describe("the export's CSV", () => {
  /** Rows of generated cells under the export's columns, written as an export writes them. */
  function written(seed: number): { rows: Record<string, string>[]; text: string } {
    const cells = strings(seed, 300 * CSV_COLUMNS.length);
    // A phone-shaped string in one cell in four.
    for (const [i, phone] of phoneLike(seed, cells.length / 4).entries()) cells[i * 4 + (i % 4)] = phone;
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
          // What runs nothing though it starts with a sign: a phone number, the whole cell seen.
          if (RUNS.test(cell)) expect(isPhoneNumber(cell), `seed ${seed}, split on ${JSON.stringify(delimiter)}: ${JSON.stringify(cell)}`).toBe(true);
        }
      }
    }
    const { text } = { text: stringify([{ id: 'a;b', username: 'c\td', display_name: 'e,f', phone_number: 'g' }], csvWriteOptions()) };
    expect(text.split('\r\n')[1]).toBe('"a;b","c\td","e,f",g,,,');
  });

  it('the phone number column is written as it is, for readers other than spreadsheets; a first cell that looks like one is guarded', () => {
    const text = stringify([{ id: '+1 234', username: 'ada', display_name: '+44 20 7946 0958', phone_number: '+442079460958' }], csvWriteOptions());
    expect(text.split('\r\n')[1]).toBe("'+1 234,ada,+44 20 7946 0958,+442079460958,,,");
    const [, cells] = parse(text) as string[][];
    expect(cells!.map(unguardCell)).toEqual(['+1 234', 'ada', '+44 20 7946 0958', '+442079460958', '', '', '']);
  });
});
