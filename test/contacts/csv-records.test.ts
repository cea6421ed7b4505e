// A CSV file's records found a chunk at a time, each kept up to a limit (src/contacts/csv-records.ts):
// the same records, row numbers and raw text csv-parse gives the whole file (as the import called
// it before), their cells read as the import reads them (cellsOfEach), for the fixtures and the
// hard cases, however the chunks fall; a record over the limit given by its size alone; a quote
// never closed named by its row and place.
import { parse as parseStream } from 'csv-parse';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellsOf, cellsOfEach, type CsvRecord, CsvRecordSplitter } from '../../src/contacts/csv-records.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/contacts/', import.meta.url));

interface Read {
  row: number;
  cells: string[];
  raw: string;
}

/** The records as csv-parse reads the whole text, with the options the import used to give it. */
async function byCsvParse(text: Buffer, delimiter: string): Promise<Read[]> {
  const found: Read[] = [];
  const parser = parseStream({ bom: true, raw: true, info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, delimiter });
  parser.end(text);
  for await (const { record, raw, info } of parser as AsyncIterable<{ record: string[]; raw: string; info: { records: number } }>) {
    // csv-parse's raw text of a record after an empty line begins with that line's CR (the
    // import wrote it to the rejects file): not part of the record, and not given by the splitter.
    found.push({ row: info.records, cells: record, raw: raw.replace(/\r?\n?$|\r$/, '').replace(/^[\r\n]+/, '') });
  }
  return found;
}

/** The records as the splitter finds them in chunks of `size`, each read by csv-parse/sync. */
function bySplitter(text: Buffer, delimiter: string, size: number, limit = 1 << 20): { records: CsvRecord[]; read: Read[] } {
  const splitter = new CsvRecordSplitter(delimiter, limit);
  const records: CsvRecord[] = [];
  const read: Read[] = [];
  // As the import reads them: the records found together, read together.
  const readAll = (found: CsvRecord[]) => {
    records.push(...found);
    const kept = found.filter((r) => r.bytes !== undefined);
    const texts = kept.map((r) => r.bytes!.toString('utf8'));
    const cells = cellsOfEach(texts, delimiter, splitter.recordDelimiter);
    for (const [i, r] of kept.entries()) {
      expect(cells[i]).not.toBeInstanceOf(Error);
      expect(cells[i], texts[i]).toEqual(cellsOf(texts[i]!, delimiter, splitter.recordDelimiter));
      read.push({ row: r.row, cells: cells[i] as string[], raw: splitter.recordDelimiter === '\n' ? texts[i]!.replace(/\r$/, '') : texts[i]! });
    }
  };
  for (let at = 0; at < text.length; at += size) readAll(splitter.push(text.subarray(at, at + size)));
  const last = splitter.end();
  if (!Array.isArray(last)) throw new Error(`unclosed quote at ${last.offset}`);
  readAll(last);
  return { records, read };
}

const HARD: [name: string, text: string, delimiter: string][] = [
  ['escaped quotes and a quoted line break', 'a,b\r\n"x ""y"" z",2\r\n\r\n"multi\r\nline",3\r\n', ','],
  ['LF ends', 'Name,Phone,Notes\n"Multi\nLine","",y\nBob,020,x\n', ','],
  ['CR ends', 'a,b\rc,d\r"e\rf",g\r', ','],
  ['quotes inside a field, and after a closed one', 'a,b\r\nx"y,"q"r",3\r\n"a"b"c",d\r\n"" "x",y\r\n', ','],
  ['a byte-order mark and semicolons', '\uFEFFa;b\r\n1;"2;3"\r\n', ';'],
  ['a lone LF inside a field once CRLF is the line end', 'a,b\r\nc\nd,e\r\n', ','],
  ['CRLF inside a field once LF is the line end', 'a,b\nc,d\r\ne,f\n', ','],
  ['empty quoted fields, an empty line and a blank one', 'a,""\r\n""\r\n\r\n \r\n1,2\r\n', ','],
  ['no line end at the end', 'a,b\r\n1,2', ','],
  ['tabs', 'name\tphone\r\n"A\tB"\t+44\r\n', '\t'],
  ['a quote closing on the last byte', 'a,b\r\n1,"2"', ','],
];

describe('CsvRecordSplitter', () => {
  const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.csv'));

  it.each([...fixtures.map((name) => [name, readFileSync(join(FIXTURES, name), 'utf8'), ''] as const), ...HARD])(
    '%s: the records csv-parse finds in the whole text, in chunks of any size',
    async (_name, text, given) => {
      // The fixtures' delimiter as the import finds it: the one of the header line's most.
      const delimiter = given || ([',', ';', '\t'] as const).reduce((best, d) => (text.split('\n')[0]!.split(d).length > text.split('\n')[0]!.split(best).length ? d : best));
      const bytes = Buffer.from(text);
      const expected = await byCsvParse(bytes, delimiter);
      expect(expected.length).toBeGreaterThan(1);
      for (const size of [1, 2, 3, 5, 8, 64, bytes.length]) {
        const { records, read } = bySplitter(bytes, delimiter, size);
        expect(read, `chunks of ${size}`).toEqual(expected);
        // Where each record ends, its line end included: the bytes up to there hold it whole.
        for (const record of records) expect(bytes.subarray(0, record.end).toString('utf8').replace(/^\uFEFF/, '')).toContain(record.bytes!.toString('utf8'));
        expect(records.at(-1)!.end).toBe(bytes.length);
      }
    },
  );

  it('a record over the limit is given by its size alone, and the records after it as ever', () => {
    const text = Buffer.from('a,b\r\n"0123456789, abc",x\r\nz,y\r\n');
    for (const size of [1, 4, text.length]) {
      const { records, read } = bySplitter(text, ',', size, 10);
      expect(records.map((r) => [r.row, r.size, r.bytes?.toString()])).toEqual([
        [1, 3, 'a,b'],
        [2, 19, undefined],
        [3, 3, 'z,y'],
      ]);
      expect(read.map((r) => r.cells)).toEqual([
        ['a', 'b'],
        ['z', 'y'],
      ]);
    }
  });

  it('keeps nothing when asked only for the bounds (the check before an import)', () => {
    const splitter = new CsvRecordSplitter(',', 1 << 20, false);
    const records = [...splitter.push(Buffer.from('a,b\r\n1,2\r\n')), ...(splitter.end() as CsvRecord[])];
    expect(records).toEqual([
      { bytes: undefined, size: 3, row: 1, end: 5 },
      { bytes: undefined, size: 3, row: 2, end: 10 },
    ]);
  });

  it('a quote never closed: the row it opened in and its place, however the chunks fall', () => {
    const text = Buffer.from('a,b\r\n1,2\r\n3,"open\r\nmore, and more\r\n');
    for (const size of [1, 2, 7, text.length]) {
      const splitter = new CsvRecordSplitter(',', 16);
      for (let at = 0; at < text.length; at += size) splitter.push(text.subarray(at, at + size));
      expect(splitter.end(), `chunks of ${size}`).toEqual({ row: 3, offset: text.indexOf('"') });
    }
  });
});
