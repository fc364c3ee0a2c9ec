// ESLint's settings for the pages' scripts (ES modules in the browser), their
// service worker, the build's bundler and the browser tests (ES modules under
// node).  Run from the project root:
//   web/node_modules/.bin/eslint -c web/eslint.config.js web/js web/sw.js web/bundle.mjs tests/browser
// (meson test --suite unit runs it as the test "eslint").

import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: ['**/node_modules/**'],
  },
  js.configs.recommended,
  {
    files: ['web/js/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
  },
  {
    // The pages' first script, a classic one (see its header).
    files: ['web/js/early.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...globals.browser },
    },
  },
  {
    files: ['web/sw.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...globals.serviceworker },
    },
  },
  {
    files: ['web/bundle.mjs', 'tests/browser/**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
  },
];
