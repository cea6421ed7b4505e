// x pressed twice without waiting, in a real terminal: bin/tickbook in tmux on its embedded
// sandbox, the two keys sent in one write (one read, as a quick double press arrives). Both
// exports are written whole, each to a file of its own, and neither is said to have failed.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/ink.js';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

describe.skipIf(!hasTmux())('x twice in tmux', () => {
  const ctx = setUpE2eHome('tickbook-e2e-export-');

  it('two exports, two whole files, no failure', async () => {
    const out = mkdtempSync(join(ctx.home, 'exports-'));
    const configDir = join(ctx.env.XDG_CONFIG_HOME!, 'tickbook');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ export_dir: out }), { mode: 0o600 });
    const s = (ctx.session = startTmux([process.execPath, BIN, '--interval', '60'], ctx.env, 120, 40));
    await s.waitFor((t) => /\d+ on this page/.test(t), 'the first page');
    s.type('xx');
    const files = () => readdirSync(out).filter((name) => !name.startsWith('.'));
    await waitFor(() => files().length === 2 && readdirSync(out).length === 2, 10_000, 'both exports, their temporaries gone');
    const cards = files().map((name) => readFileSync(join(out, name), 'utf8').match(/^BEGIN:VCARD\r$/gm)?.length ?? 0);
    expect(cards[0]).toBeGreaterThan(0);
    expect(cards[1]).toBe(cards[0]);
    for (const name of files()) expect(name).toMatch(/^tickbook-contacts-\d{8}-\d{6}(-2)?\.vcf$/);
    // The messages, in full: two exports said, no failure.
    s.keys('m');
    const log = await s.waitFor((t) => (t.match(/exported \d+ contacts to /g) ?? []).length === 2, 'both exports in the messages');
    expect(log).not.toContain('export failed');
  }, 30_000);
});
