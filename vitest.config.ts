import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { NOT_TESTS, TEST_FILES, unitTestFiles } from './test/tiers.js';

// Two tiers (test/tiers.ts): `npm run test:unit` (--project unit) and `npm run test:e2e`
// (--project e2e); `npm test` runs both.
const unit = unitTestFiles(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one, on a 2-core machine. Most files
    // wait on processes, terminals and sockets more than they compute, so every core runs one:
    // measured on 2 cores, the suite takes 3.4 minutes instead of 5.5, green in each run.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { extends: true, test: { name: 'unit', include: unit, exclude: NOT_TESTS } },
      { extends: true, test: { name: 'e2e', include: TEST_FILES, exclude: [...NOT_TESTS, ...unit] } },
    ],
  },
});
