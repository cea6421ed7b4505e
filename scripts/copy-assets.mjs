// tsc only emits JavaScript; the sandbox's data files travel beside the compiled tree and beside
// the bundle (each looks for ./data next to its own module).
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const target of ['dist/server/data', 'dist/bundle/data', 'dist/bundle/chunks/data']) {
  cpSync(`${root}src/server/data`, `${root}${target}`, { recursive: true });
}
