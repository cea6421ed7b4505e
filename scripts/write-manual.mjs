// Writes dist/man/tickbook.1 from the compiled help texts (dist/cli/manual.js): run by the build
// after tsc, so the manual page is always the help of the same build. package.json's "man"
// points at it, so `npm install -g` puts it where `man tickbook` finds it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { manual } = await import(new URL('../dist/cli/manual.js', import.meta.url).href);
mkdirSync(join(root, 'dist', 'man'), { recursive: true });
writeFileSync(join(root, 'dist', 'man', 'tickbook.1'), manual(version));
