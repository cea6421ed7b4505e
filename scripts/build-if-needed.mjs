// `npm start` and `npm test` call this so a fresh clone (or an edited tree) never runs stale
// JavaScript, while an up-to-date tree pays nothing for the check.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, stamp } from './build.mjs';
import { newestInput } from './build-inputs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestInput(root)) {
  process.stderr.write('tickbook: building…\n');
  build();
}
