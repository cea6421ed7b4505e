// `npm start` and `npm test` call this so a fresh clone (or an edited tree) never runs stale
// JavaScript, while an up-to-date tree pays nothing for the check.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stamp } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const inputs = Math.max(
  newestMtime(join(root, 'src')),
  statSync(join(root, 'tsconfig.json')).mtimeMs,
  statSync(join(root, 'tsconfig.build.json')).mtimeMs,
  statSync(join(root, 'package.json')).mtimeMs,
);
if (!existsSync(stamp) || statSync(stamp).mtimeMs < inputs) {
  process.stderr.write('tickbook: building…\n');
  build();
}
