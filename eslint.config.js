import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
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
    },
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
    files: ['src-main/core/**', 'src-main/cli/**', 'src-main/web/**', 'src-main/emulator/**', 'src-shared/**', 'src-renderer/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src-main/electron/ may import electron.' }] }],
    },
  },
);
