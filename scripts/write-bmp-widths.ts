// `npm run widths`: writes src/text/bmp-widths.ts, every BMP character's width as string-width
// gives it (or "joins a neighbour"), as runs. Run it after string-width, get-east-asian-width or
// Node's Unicode version changes; test/text/bmp-widths.test.ts fails until then.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { classifyUnit } from '../src/text/simple-width.js';

/** start, width, start, width, …: a run starts wherever the width differs from the unit before. */
export function widthRuns(classify: (unit: number) => number): number[] {
  const runs: number[] = [];
  for (let unit = 0; unit < 0x10000; unit++) {
    const width = classify(unit);
    if (runs.length === 0 || runs[runs.length - 1] !== width) runs.push(unit, width);
  }
  return runs;
}

const stringWidthVersion = (): string =>
  (JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('string-width')), 'package.json'), 'utf8')) as { version: string }).version;

export function bmpWidthsSource(): string {
  const runs = widthRuns(classifyUnit);
  const lines: string[] = [];
  for (let i = 0; i < runs.length; i += 16) lines.push(`    ${runs.slice(i, i + 16).join(', ')},`);
  return `// Written by \`npm run widths\` (scripts/write-bmp-widths.ts); do not edit. Each UTF-16 code unit's
// width as string-width ${stringWidthVersion()} gives it on Unicode ${process.versions.unicode}, or -1 where the character
// joins a neighbour (or is a control or a surrogate): see simple-width.ts.
export const BMP_WIDTHS = {
  unicode: '${process.versions.unicode}',
  stringWidth: '${stringWidthVersion()}',
  /** start, width, start, width, …: each width holds up to the next start. */
  runs: [
${lines.join('\n')}
  ],
} as const;
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL('../src/text/bmp-widths.ts', import.meta.url);
  writeFileSync(path, bmpWidthsSource());
  process.stdout.write(`wrote ${path.pathname}\n`);
}
