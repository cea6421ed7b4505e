// The machine's own Node when it is older than the 22.19 tickbook needs (Node 20 here): what a
// shell runs bin/tickbook with when the Node that npm's scripts put first on PATH is not there.
// And a Node that says it is another version, for the minor versions no machine here has.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export const nodeMajor = (version: string): number => Number(version.replace(/^v/, '').split('.')[0]);

/** A node on PATH (or in /usr/bin, /usr/local/bin) older than 22, if there is one. */
export function findOldNode(): string | undefined {
  for (const place of (process.env.PATH ?? '').split(delimiter).concat(['/usr/bin', '/usr/local/bin'])) {
    const candidate = join(place, 'node');
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).trim();
      if (nodeMajor(version) < 22) return candidate;
    } catch {
      // None there.
    }
  }
  return undefined;
}

/** PATH as a shell has it with `node` the older one: its directory first, no node_modules/.bin. */
export function shellPathFor(node: string): string {
  return [dirname(node), ...(process.env.PATH ?? '').split(delimiter).filter((p) => !p.includes('node_modules'))].join(delimiter);
}

/**
 * A module to preload (`node --require FILE`) that makes this Node say it is `version` ("22.18.0")
 * in process.version and process.versions.node, what tickbook reads its version from; written in
 * `dir`. Only the version is changed: what a Node 22.18 lacks is still there.
 */
export function fakeNodeVersion(dir: string, version: string): string {
  const file = join(dir, `node-${version}.cjs`);
  writeFileSync(
    file,
    `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });\n` +
      `Object.defineProperty(process, 'version', { value: ${JSON.stringify(`v${version}`)} });\n`,
  );
  return file;
}
