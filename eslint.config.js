// `npm run lint`: ESLint's and typescript-eslint's recommended rules and React's two rules of hooks,
// on syntax alone (about 10 s on 2 cores; typescript-eslint's type-aware set took 29: README,
// Development). typescript-eslint reads TypeScript 6's API (package.json's `typescript`).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  { ignores: ['dist/', 'test/fixtures/'] },
  {
    files: ['**/*.{ts,tsx,mts}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // Not the plugin's recommended set: the rest of it checks code for the React Compiler, which
      // tickbook does not use, and running the compiler took two thirds of the lint.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // A `let` that a callback reads before its one assignment stays a `let` (launchDashboard's run).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A leading underscore marks a binding left unused on purpose (an argument a signature needs,
      // the items a loop only counts); so is a key taken out of an object by a rest.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.{js,mjs}', 'bin/tickbook'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    // Every file, after the recommended sets. A disable comment that no longer silences anything
    // fails the lint, so none outlives its reason.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    // A terminal program: its patterns match ESC, CSI and the C0 and C1 controls on purpose.
    rules: { 'no-control-regex': 'off' },
  },
]);
