// What the bundle loads before the dashboard's first frame: undici, the largest part of it, is a
// chunk of its own, loaded with the first request (src/api/proxy.ts), never at start; and
// loading Ink's layout engine does not load Node's own fetch (scripts/bundle.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));

/** The chunks a file imports statically (`from"./chunks/…"`, `import "./chunks/…"`), and theirs. */
function staticChunks(file: string, seen = new Set<string>()): Set<string> {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from|import)\s*"\.\/(?:chunks\/)?([\w-]+\.mjs)"/g)) {
    const chunk = join(bundle, 'chunks', match[1]!);
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    staticChunks(chunk, seen);
  }
  return seen;
}

const sourcesOf = (chunk: string): string[] => (JSON.parse(readFileSync(`${chunk}.map`, 'utf8')) as { sources: string[] }).sources;

describe('the bundle at start', () => {
  it('loads no undici until a request is made: it is a chunk imported only dynamically', () => {
    const atStart = [join(bundle, 'tickbook.mjs'), ...staticChunks(join(bundle, 'tickbook.mjs'))];
    expect(atStart.length).toBeGreaterThan(1);
    for (const file of atStart) expect(sourcesOf(file).filter((source) => /node_modules\/undici\//.test(source)), file).toEqual([]);
    const all = readdirSync(join(bundle, 'chunks')).filter((file) => file.endsWith('.mjs'));
    const withUndici = all.filter((file) => sourcesOf(join(bundle, 'chunks', file)).some((source) => /node_modules\/undici\//.test(source)));
    expect(withUndici).toHaveLength(1);
  });

  it("loads the dashboard, Ink and Yoga's wasm without Node's own undici (its fetch is never asked for)", () => {
    const dashboard = readdirSync(join(bundle, 'chunks')).find((file) => file.startsWith('dashboard-') && file.endsWith('.mjs'))!;
    const script = `await import(${JSON.stringify(join(bundle, 'chunks', dashboard))}); console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici'))));`;
    const loaded = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
    expect(loaded).toEqual([]);
  });
});

describe("undici in both bundles: only the parts the client uses (src/api/undici-parts.ts)", () => {
  const undiciFiles = (map: string): string[] =>
    sourcesOf(map)
      .map((source) => /node_modules\/undici\/(.*)$/.exec(source)?.[1])
      .filter((file) => file !== undefined);
  const chunks = readdirSync(join(bundle, 'chunks')).filter((file) => file.endsWith('.mjs'));
  const bundles = {
    'the ES modules': chunks.flatMap((file) => undiciFiles(join(bundle, 'chunks', file))),
    "the dashboard's script": undiciFiles(join(bundle, 'dashboard.cjs')),
  };

  it.each(Object.entries(bundles))('%s: Agent and ProxyAgent, and none of its index, fetch, WebSocket, EventSource, mocks or caches', (_, files) => {
    expect(files).toContain('lib/dispatcher/agent.js');
    expect(files).toContain('lib/dispatcher/proxy-agent.js');
    const unused = /^(index\.js|lib\/(mock|cache|interceptor)\/|lib\/web\/(websocket|eventsource|cache|cookies)\/|lib\/web\/fetch\/index\.js)/;
    expect(files.filter((file) => unused.test(file))).toEqual([]);
  });
});

describe("the dashboard's script (dist/bundle/dashboard.cjs)", () => {
  const script = readFileSync(join(bundle, 'dashboard.cjs'), 'utf8');

  it('is strict throughout, as the modules it is made of are: the directive comes first', () => {
    expect(script.startsWith('"use strict";')).toBe(true);
  });

  it('has no import(): node:vm runs a script that holds one only with an experimental loader', () => {
    expect(script).not.toMatch(/\bimport\(/);
    expect(script).toMatch(/require\("better-sqlite3"\)/);
  });

  it('ends in the key its cache is named by: a hash of everything before it', () => {
    const line = /\/\/# tickbook-build=([0-9a-f]{16})\n$/.exec(script);
    expect(line).not.toBeNull();
    const before = script.slice(0, line!.index);
    expect(line![1]).toBe(createHash('sha256').update(before).digest('hex').slice(0, 16));
  });

  it("loads the dashboard, Ink and Yoga's wasm (instantiated at once, no top-level await) without Node's own undici", () => {
    // Started with no terminal, the dashboard's module is loaded (Ink, and Yoga with it) and then
    // refuses to draw: a Yoga that failed to load would end it with another error.
    const probe = `const { runDashboardScript } = await import(${JSON.stringify(join(bundle, '../launch/dashboard-script.js'))});
process.argv = [process.argv[0], 'tickbook'];
process.on('exit', () => process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici')))));
runDashboardScript({ file: ${JSON.stringify(join(bundle, 'dashboard.cjs'))}, cacheDir: undefined, flags: [] });`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    expect(run.stderr).toContain('the dashboard needs a terminal');
    expect(run.status).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
