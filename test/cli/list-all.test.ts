// `contacts list --all` walks with the largest page the API allows, and a page that says more
// follow but brings none is an error, not the end of the list (issue 18, small things). A real
// server of the test's own on loopback answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runChild } from '../helpers/child.js';
import { BIN } from '../helpers/sandbox.js';
import { closeAllServers, contactJson, httpServer, json } from '../helpers/servers.js';

const home = mkdtempSync(join(tmpdir(), 'tickbook-list-all-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
afterEach(closeAllServers);

const run = (url: string, ...args: string[]) =>
  runChild(process.execPath, [BIN, 'contacts', 'list', '--all', '--base-url', url, '--token', 'tok', ...args], {
    env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') },
    timeoutMs: 15_000,
  });

describe('contacts list --all', () => {
  it('asks for 100 contacts a page when no --limit is given', async () => {
    const server = await httpServer((req, res) => {
      const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
      if (after === null) json(res, 200, { has_more: true, data: [contactJson({ id: 'ct_1' })] });
      else json(res, 200, { has_more: false, data: [contactJson({ id: 'ct_2' })] });
    });
    const result = await run(server.url, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).data.map((c: { id: string }) => c.id)).toEqual(['ct_1', 'ct_2']);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('limit'))).toEqual(['100', '100']);
  });

  it('a page with has_more: true and no data: an error saying the list is incomplete, exit 1, no list passed off as whole', async () => {
    const server = await httpServer((req, res) => {
      const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
      if (after === null) json(res, 200, { has_more: true, data: [contactJson({ id: 'ct_1' }), contactJson({ id: 'ct_2' })] });
      else json(res, 200, { has_more: true, data: [] });
    });
    for (const format of ['--json', '--ndjson', undefined]) {
      const result = await run(server.url, ...(format ? [format] : []));
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/^tickbook: the server sent an empty page saying more contacts follow \(has_more: true\); the list is incomplete after 2/);
      expect(result.stdout).not.toContain('"has_more": false');
    }
  });
});
