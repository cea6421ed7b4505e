// tsc only emits JavaScript; the sandbox's data files travel beside the compiled code.
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
cpSync(`${root}src/server/data`, `${root}dist/server/data`, { recursive: true });
