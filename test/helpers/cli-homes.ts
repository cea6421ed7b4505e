// Homes for the command line's tests: one test sandbox for the file, and a fresh home a call
// (its own config and history file) pointed at it, all removed after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { cleanEnv } from './child.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

export function setUpCliHomes(prefix: string): { freshEnv: () => NodeJS.ProcessEnv } {
  let root: string | undefined;
  let sandbox: TestSandbox | undefined;
  let count = 0;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), prefix));
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  return {
    freshEnv: () => {
      const home = join(root!, `home-${++count}`);
      return {
        ...cleanEnv(),
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_DATA_HOME: join(home, 'data'),
        TICKBOOK_BASE_URL: sandbox!.url,
        TICKBOOK_TOKEN: sandbox!.token,
        TICKBOOK_API_KEY: sandbox!.apiKey,
      };
    },
  };
}
