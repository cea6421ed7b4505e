// The one build: `npm run build` runs it, and so does build-if-needed when the tree has changed.
// It ends by writing the stamp build-if-needed checks, so a build by either is seen by both.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const stamp = join(root, 'dist', '.build-stamp');

export function build() {
  const run = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  // TypeScript 7's tsc; `typescript` itself is TypeScript 6's API, for typescript-eslint (package.json).
  run(join(root, 'node_modules', '@typescript', 'native', 'bin', 'tsc'), '-p', 'tsconfig.build.json');
  run(join(root, 'scripts', 'copy-assets.mjs'));
  run(join(root, 'scripts', 'bundle.mjs'));
  run(join(root, 'scripts', 'write-manual.mjs'));
  // Written last: a build that failed part way leaves the tree marked stale.
  writeFileSync(stamp, '');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build();
