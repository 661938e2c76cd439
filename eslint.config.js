// ESLint flat config: typescript-eslint with type-aware rules over src/, a lighter set over test/, bench/ and scripts/ (docs/architecture.md "Lint").
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import tseslint from 'typescript-eslint';

/** One TypeScript program for every linted file; scripts/ is outside tsconfig.json and gets the default project. */
const parserOptions = { projectService: { allowDefaultProject: ['scripts/*.ts'] }, tsconfigRootDir: import.meta.dirname };

/** Rules every TypeScript file keeps, in src/ and in the tests alike. */
const everywhere = {
  '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  // An async method that does not await still keeps its interface's promise contract (a sync throw would not).
  '@typescript-eslint/require-await': 'off',
  // A `let` read by a closure before its one assignment (wiring order) stays a `let`.
  'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
  // An eslint-disable says why (`-- <reason>`), and one that no longer disables anything is an error.
  '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
  '@eslint-community/eslint-comments/no-unlimited-disable': 'error',
};

export default defineConfig(
  {
    ignores: ['node_modules/', '.cache/', 'dist/', '.data/', 'coverage/', '.tmp-bench/', 'bench/results/', 'deploy/', 'docs/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  comments.recommended,
  // src/: the whole type-aware recommended set; `any` only where a library forces it, with a reason.
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions },
    rules: {
      ...everywhere,
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // Tests, benchmarks and scripts: the same parser and promise rules; `any` and the no-unsafe-* family stay
  // allowed there (a test reads untyped JSON answers on purpose), so the type-aware set is not repeated.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions },
    rules: {
      ...everywhere,
      '@typescript-eslint/no-explicit-any': 'off',
      // `typeof import('…')` names a module loaded late on purpose (a test's fresh import).
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Hostile-input tests write control characters and over-precise numbers on purpose; a test's last assignment may be unread.
      'no-control-regex': 'off',
      'no-loss-of-precision': 'off',
      'no-useless-assignment': 'off',
    },
  },
  // Plain JavaScript (build script, layout worker): node globals, no type information.
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
  },
);
