import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { dhrRules } from './lint/dhr-rules.js';

const root = path.dirname(new URL(import.meta.url).pathname);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'src/server/db/migrations/**', 'src/web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { dhr: { rules: dhrRules }, 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'dhr/boundaries': 'error',
      'dhr/module-cycles': 'error',
      'dhr/table-ownership': 'error',
      'dhr/sql-in-repositories': 'error',
      'dhr/no-timers-in-routes': 'error',
      'dhr/outbound-http-only': 'error',
      'dhr/no-outbound-in-transaction': 'error',
      'dhr/no-module-decorators': 'error',
      'dhr/routes-in-routes-files': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `import { type A }` still loads the module (and, in the web bundle, whatever it imports).
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Accessibility of the web app's markup: the recommended rules, all errors.
  {
    files: ['src/web/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  // Asking before something is removed is an in-page dialog (components/ui/confirm.tsx, useConfirm):
  // the browser's own box blocks the page, cannot be styled and reads differently on every phone.
  {
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'confirm', message: 'Ask in the page: useConfirm() from components/ui/confirm.tsx.' },
      ],
      'no-restricted-globals': ['error', { name: 'confirm', message: 'Ask in the page: useConfirm() from components/ui/confirm.tsx.' }],
    },
  },
  // A function a reader can hold in view: one that does several things is split into parts named for
  // them (hooks, sub-components, routes files, named functions).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
  // Plain JavaScript that runs before anything is compiled: linted without type information.
  { files: ['eslint.config.js', 'lint/**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
