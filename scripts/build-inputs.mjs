// What the built dist/ is made of, for build-if-needed to tell when it is stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/**
 * The newest change to what the bundle is made of: our sources and build scripts, the patches
 * applied to packages, and the packages themselves (npm rewrites node_modules/.package-lock.json
 * on every install).
 */
export function newestInput(root) {
  return Math.max(
    newestMtime(join(root, 'src')),
    newestMtime(join(root, 'scripts')),
    newestMtime(join(root, 'patches')),
    mtime(join(root, 'tsconfig.json')),
    mtime(join(root, 'tsconfig.build.json')),
    mtime(join(root, 'package.json')),
    mtime(join(root, 'node_modules', '.package-lock.json')),
  );
}
