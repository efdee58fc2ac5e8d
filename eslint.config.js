import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import nodePlugin from 'eslint-plugin-n';
import svelteConfig from './svelte.config.js';
import { builtinModules } from 'node:module';

const ELECTRON_ONLY_IN_SHELL = { name: 'electron', message: 'Only src-main/electron/ may import electron.' };
const CORE_REACHES_UP = {
  regex: String.raw`^\.\.?/(.*/)?(cli|web|electron|emulator)(/|$)`,
  message: 'src-main/core imports nothing from cli, web, electron or emulator: take it through a port (app-ports.ts) that the host fills.',
};
/** The core's import rule, with what one of its folders may not import either (a folder's block replaces the core's). */
const coreImports = (...patterns) => ({
  'no-restricted-imports': ['error', { paths: [ELECTRON_ONLY_IN_SHELL], patterns: [CORE_REACHES_UP, ...patterns] }],
});
const SCIENCE_STANDS_ALONE =
  'src-science imports nothing from src-shared, src-main or src-renderer, and no Node module: move what it needs into src-science, or let the caller pass it in.';
const NO_NODE_IN_BROWSER = 'src-shared and src-renderer run in the browser window too: no Node modules; take it through the contract.';
/** What src-shared and src-renderer may not import: no main-process code, no Node modules. */
const BROWSER_PATHS = [ELECTRON_ONLY_IN_SHELL, ...builtinModules.map((name) => ({ name, message: NO_NODE_IN_BROWSER }))];
const BROWSER_PATTERNS = [
  { regex: '^node:', message: NO_NODE_IN_BROWSER },
  { regex: '(^|/)src-main(/|$)', message: 'src-shared and src-renderer import nothing from src-main: move what both need to src-shared.' },
];

/**
 * The renderer's features (its top folders) and the ones each may import besides lib/ and src-shared/; a feature
 * not named here is out of bounds. The shell (the window's frame) may import every feature, and only main.ts imports it.
 */
export const RENDERER_FEATURE_USES = {
  lib: [],
  quicklook: [],
  campaigns: ['quicklook'],
  downloads: ['quicklook', 'campaigns'],
  browse: ['quicklook', 'campaigns', 'downloads'],
};
/** A relative import that climbs out of the importing file's folder into one of `folders` of src-renderer. */
const intoRendererFolder = (folders) => String.raw`^(\.\./)+(${folders.join('|')})(/|$)`;
/** The import rule of one renderer feature: the browser's, the shell out of bounds, and the features it does not use. */
function rendererFeatureImports(feature, uses) {
  const undeclared = Object.keys(RENDERER_FEATURE_USES).filter((other) => other !== feature && other !== 'lib' && !uses.includes(other));
  const patterns = [
    ...BROWSER_PATTERNS,
    { regex: intoRendererFolder(['shell']), message: 'Nothing imports src-renderer/shell but main.ts: take what a feature needs from lib/ or its own folder.' },
  ];
  if (undeclared.length > 0) {
    const allowed = ['src-shared', ...(feature === 'lib' ? [] : ['lib']), ...uses].join(', ');
    patterns.push({
      regex: intoRendererFolder(undeclared),
      message: `src-renderer/${feature} imports only ${allowed} (RENDERER_FEATURE_USES in eslint.config.js): what two features both need belongs in lib/.`,
    });
  }
  return { 'no-restricted-imports': ['error', { paths: BROWSER_PATHS, patterns }] };
}

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
        {
          selector: "CallExpression[callee.object.name='Math'] > SpreadElement",
          message: 'Spread arguments overflow the stack on large arrays: use a loop or reduce.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(push|unshift|fromCharCode|fromCodePoint)$/] > SpreadElement',
          message: 'Spread arguments overflow the stack on large arrays: use a loop.',
        },
      ],
    },
  },
  {
    // Every package the code imports must be declared in package.json: hoisting by npm must not be what makes it resolve.
    files: ['src-main/**', 'src-shared/**', 'src-science/**', 'src-renderer/**', 'scripts/**', 'test/**', 'bin/**'],
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
  // The floors of the architecture (its guide's "Rules of the house"). A file takes
  // the options of the last block naming the rule, so each floor's block repeats the electron rule; test/lint/
  // plants one violation of each and checks that it is reported.
  {
    // The architecture's first rule: only the Electron shell and its preload may import electron.
    files: ['src-main/cli/**', 'src-main/lib/**', 'src-main/web/**', 'src-main/emulator/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON_ONLY_IN_SHELL] }] },
  },
  {
    // The core is plain Node under every front end: it is handed what a host provides (ports), never reaches up.
    files: ['src-main/core/**'],
    rules: coreImports(),
  },
  {
    // The downloads and the campaigns meet only through core/state/ (the state folder's database, its opening, each
    // domain's own tables): the campaigns may queue downloads, the downloads never reach into the campaigns.
    files: ['src-main/core/downloads/**'],
    rules: coreImports({
      regex: String.raw`^\.\.?/(.*/)?campaigns(/|$)`,
      message: 'src-main/core/downloads imports nothing from campaigns: what both need belongs in core/state/ (a domain hook, a table of its own).',
    }),
  },
  {
    // The state folder's module is the floor under both: it knows no domain, each registers with it.
    files: ['src-main/core/state/**'],
    rules: coreImports({
      regex: String.raw`^\.\.?/(.*/)?(downloads|campaigns|app|api)(/|$)`,
      message: 'src-main/core/state imports no domain (downloads, campaigns, app, api): each domain registers its tables and hooks with it.',
    }),
  },
  {
    // Shared code and the renderer run in a browser window too: no main-process code, no Node modules.
    files: ['src-shared/**', 'src-renderer/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: BROWSER_PATHS, patterns: BROWSER_PATTERNS }],
    },
  },
  // The renderer by feature: each feature's folder imports lib/, src-shared/ and the features it is declared to use.
  ...Object.entries(RENDERER_FEATURE_USES).map(([feature, uses]) => ({
    files: [`src-renderer/${feature}/**`],
    rules: rendererFeatureImports(feature, uses),
  })),
  {
    // The science layer (FITS, astronomy, figures) is what a Python or WebAssembly port would take: pure code over
    // bytes and numbers, reaching no other layer and no Node module. Packages are allowed (fflate: a port's zlib).
    files: ['src-science/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ELECTRON_ONLY_IN_SHELL, ...builtinModules.map((name) => ({ name, message: SCIENCE_STANDS_ALONE }))],
          patterns: [
            { regex: '^node:', message: SCIENCE_STANDS_ALONE },
            { regex: '(^|/)src-(shared|main|renderer)(/|$)', message: SCIENCE_STANDS_ALONE },
          ],
        },
      ],
    },
  },
  {
    // The benchmarks ship nothing from the tests: what both need lives under scripts/ (tests may import it there).
    files: ['scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: String.raw`^\.\.?/(.*/)?test(/|$)`, message: 'scripts/ imports nothing from test/: move what both need under scripts/.' }] },
      ],
    },
  },
);
