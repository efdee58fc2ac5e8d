import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import nodePlugin from 'eslint-plugin-n';
import svelteConfig from './svelte.config.js';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // A spread argument passes every element on the stack: past ~150,000 elements it throws
      // "Maximum call stack size exceeded". Listings reach that size, so reduce or loop instead.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Math'] > SpreadElement", message: 'Spread arguments overflow the stack on large arrays: use a loop or reduce.' },
        {
          selector: "CallExpression[callee.property.name=/^(push|unshift|fromCharCode|fromCodePoint)$/] > SpreadElement",
          message: 'Spread arguments overflow the stack on large arrays: use a loop.',
        },
      ],
    },
  },
  {
    // Every package the code imports must be declared in package.json: hoisting by npm must not be what makes it resolve.
    files: ['src-main/**', 'src-shared/**', 'src-renderer/**', 'scripts/**', 'test/**', 'bin/**'],
    plugins: { n: nodePlugin },
    settings: { n: { tryExtensions: ['.ts', '.js', '.mjs', '.svelte', '.json'] } },
    rules: { 'n/no-extraneous-import': 'error' },
  },
  {
    // Svelte components and rune modules: TypeScript inside, the shared Svelte options for the Svelte rules.
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig } },
  },
  {
    // The renderer runs in a browser window (and its tests in jsdom), not in Node.
    files: ['src-renderer/**', 'test/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The architecture's first rule: only the Electron shell and its preload may import electron.
    files: ['src-main/core/**', 'src-main/cli/**', 'src-main/lib/**', 'src-main/web/**', 'src-main/emulator/**', 'src-shared/**', 'src-renderer/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src-main/electron/ may import electron.' }] }],
    },
  },
);
