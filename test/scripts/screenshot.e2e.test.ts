// `npm run screenshot` (scripts/screenshot.ts) still draws the README's pictures: it runs the
// dashboard in a real pseudo-terminal on its sandbox, so this is an end-to-end test. Its pictures
// are well-formed SVG showing what a person would see, and byte for byte the committed ones in
// docs/images: the script draws the same bytes each run (a fixed seed and clock), so a difference
// means the dashboard looks otherwise now and the pictures are to be drawn again.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runChild, tsxArgs } from '../helpers/child.js';
import { parseSvg, svgScreen } from '../helpers/svg-document.js';

const out = mkdtempSync(join(tmpdir(), 'tickbook-screenshot-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run screenshot', () => {
  it('draws the dashboard and the chart of its first symbol as SVG, the bytes committed in docs/images', async () => {
    const run = await runChild(process.execPath, tsxArgs('scripts/screenshot.ts', ['--out', out]), { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);

    const pictures = ['dashboard', 'detail'].map((name) => parseSvg(readFileSync(join(out, `${name}.svg`), 'utf8')));
    // 120x40 cells of 6x12 user units, 6 in from the edges.
    for (const picture of pictures) expect(picture[0]!.attributes.viewBox).toBe('0 0 732 492');
    const [dashboard, detail] = pictures.map(svgScreen) as [string[], string[]];
    expect(dashboard[1]).toMatch(/^┃ ▸ Contacts .*┃│ +Ticker · Watchlist +every 2s │$/);
    expect(dashboard[2]).toMatch(/NAME +USERNAME +LAST ACTIVE .*SYMBOL +PRICE +TICK +SESSION +VOLUME +TREND +AGE/);
    expect(dashboard[3]).toMatch(/│ AAPL +\d+\.\d\d +[▲▼]\d+\.\d\d +[+-]\d+\.\d\d% +\d+\.\dM [▁-█]+ +0s │$/);
    expect(dashboard.join('\n')).toMatch(/\d+ on this page/);

    expect(detail[1]).toMatch(/^┃ AAPL · Apple Inc\. · US listing +┃$/);
    expect(detail[4]).toMatch(/^┃ {2}1h {3}1d {3}5d {3}1m {3}all {3}h\/l or 1-5: span/);
    expect(detail.join('\n')).toMatch(/[\u2801-\u28ff]/);
    // The time axis: the last day, two hours a label.
    expect(detail[detail.length - 4]).toMatch(/^┃ 20:30 +22:30 +00:30 .* 20:30 +┃$/);

    for (const name of ['dashboard.svg', 'detail.svg']) {
      expect(readFileSync(join(out, name), 'utf8'), `docs/images/${name} is not what \`npm run screenshot\` draws now: run it, look, and commit the pictures`).toBe(
        readFileSync(join(ROOT, 'docs/images', name), 'utf8'),
      );
    }
  }, 90_000);
});
