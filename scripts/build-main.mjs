// Bundles the Node side (the command line, the Electron main process and its preload) with esbuild.
import { cp, readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire, isBuiltin } from 'node:module';
import { build } from 'esbuild';
import { buildCliBundles } from './cli-bundles.mjs';
import { nodeBundle, projectRoot } from './node-bundle-options.mjs';

// The command line is CommonJS, loaded by dist/cli/mlso-dl.js (src-main/cli/launch/launch.ts), which first turns on
// Node's compile cache in the user's cache folder: a start then reads back the code an earlier run compiled instead of
// parsing and compiling it again. It is two scripts (scripts/cli-bundles.mjs): what every start needs (the program's
// definition, commander) and, loaded by a command that runs, the commands' modules (client, engine, emulator, web
// server), so that `--version` and `--help` read, check and restore only the first. Inside the second, esbuild turns
// an import() into a call that initialises those modules, and a package left in node_modules is require()d inside
// them, where an ES module bundle would import it as the bundle loads; so each command initialises only its own.
// (ES modules split into chunks start slower: each chunk is one more module to resolve, load and link, and an import
// of one of Node's modules reads all its exports, which for node:process loads its diagnostic report.)
// import.meta.url is the script's own URL (web mode finds dist/renderer from it).
// The small packages every start needs are bundled in: commander loaded as a package from node_modules is one more
// file to find and load at every start. So are the client's (axios, zod, tough-cookie, the JSON stream parser):
// loaded from node_modules, file by file, they cost a command's first request several times what they cost bundled,
// with white space and syntax minified (less for V8 to parse). Bundled CommonJS require()s Node's own modules,
// hence the banner. better-sqlite3 (native), ws and the rest stay in node_modules.
const STARTUP_PACKAGES = ['commander', 'env-paths', 'axios', 'zod', 'tough-cookie', '@streamparser/json'];
const manifest = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8'));
const { packages: _allExternal, ...cliBundle } = nodeBundle;
// commander requires node:child_process as it loads, for stand-alone executable subcommands, which mlso-dl does not
// have; that costs every start some CPU. Inside commander it is a stand-in that loads it on first use.
const lazyChildProcessInCommander = {
  name: 'lazy-child-process-in-commander',
  setup(bundler) {
    const commander = `${path.sep}node_modules${path.sep}commander${path.sep}`;
    bundler.onResolve({ filter: /^(node:)?child_process$/ }, ({ importer }) =>
      importer.includes(commander) ? { path: 'child_process', namespace: 'on-first-use' } : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: 'on-first-use' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  },
};
// axios picks its adapter per request (xhr, then http, then fetch) and Node always has http; but as it loads, its
// fetch adapter probes fetch, Request and Response, and its utils read FormData, and touching any of those loads
// undici (Node's fetch): CPU in every command that asks the server, for nothing it uses. In the
// bundle the fetch adapter says "not available", and FormData is read when a request has a body (mlso-dl's have
// none). Should a later axios word that line differently, it is left as it is (test/cli/start-up-modules.test.ts).
const AXIOS_FORM_DATA_AT_LOAD = "const FormDataCtor = typeof G.FormData !== 'undefined' ? G.FormData : undefined;";
const AXIOS_FORM_DATA_USE = 'if (FormDataCtor && thing instanceof FormDataCtor) return true;';
const noFetchInAxios = {
  name: 'no-fetch-in-axios',
  setup(bundler) {
    const axiosLib = `${path.sep}node_modules${path.sep}axios${path.sep}lib${path.sep}`;
    bundler.onResolve({ filter: /^\.\/fetch\.js$/ }, ({ importer }) =>
      importer.endsWith(`${axiosLib}adapters${path.sep}adapters.js`) ? { path: 'axios-fetch-adapter', namespace: 'not-available' } : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: 'not-available' }, () => ({ contents: 'export const getFetch = () => false;', loader: 'js' }));
    bundler.onLoad({ filter: /[\\/]node_modules[\\/]axios[\\/]lib[\\/]utils\.js$/ }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      if (!source.includes(AXIOS_FORM_DATA_AT_LOAD) || !source.includes(AXIOS_FORM_DATA_USE)) return undefined;
      const contents = source
        .replace(AXIOS_FORM_DATA_AT_LOAD, "const formDataCtor = () => (typeof G.FormData !== 'undefined' ? G.FormData : undefined);")
        .replace(AXIOS_FORM_DATA_USE, 'if (formDataCtor() && thing instanceof formDataCtor()) return true;');
      return { contents, loader: 'js' };
    });
  },
};
// axios loads form-data (multipart uploads), and form-data loads mime-types, which reads its whole database of MIME
// types (mime-db, some 200 KB of JSON) into maps as it loads, in every command that asks the server, for
// the content type of a file form-data is given to upload, which mlso-dl never does. Inside form-data it is a
// stand-in that loads it (still bundled) on first use.
const lazyMimeTypesInFormData = {
  name: 'lazy-mime-types-in-form-data',
  setup(bundler) {
    const formData = `${path.sep}node_modules${path.sep}form-data${path.sep}`;
    bundler.onResolve({ filter: /^mime-types$/ }, async ({ importer, resolveDir, kind, pluginData }) => {
      if (!importer.includes(formData) || pluginData?.real) return undefined;
      const real = await bundler.resolve('mime-types', { importer, resolveDir, kind, pluginData: { real: true } });
      // Named relative to the project: the name is written into the bundle, which should not depend on where it was built.
      return real.errors.length > 0 ? undefined : { path: path.relative(projectRoot, real.path), namespace: 'loaded-on-first-use' };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'loaded-on-first-use' }, ({ path: relative }) => ({
      contents: `let real; module.exports = new Proxy({}, { get: (_, name) => (real ??= require(${JSON.stringify(path.join(projectRoot, relative))}))[name] });`,
      resolveDir: projectRoot,
      loader: 'js',
    }));
  },
};
// In a CommonJS bundle an ES module's default import of one of Node's modules (`import fs from 'node:fs'`) becomes a
// copy of every export of that module, made as the bundle loads (esbuild's __toESM); commander and env-paths, which
// every start loads, have six such imports. In the packages bundled, such an import is Node's module itself, as it is
// (child_process aside: commander's is loaded on first use, above).
const DEFAULT_IMPORT_OF_NODE_MODULE = /^import (\w+) from '(node:(?!child_process')[\w/]+)';$/gm;
const nodeModulesAsTheyAre = {
  name: 'node-modules-as-they-are',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      const contents = source.replace(DEFAULT_IMPORT_OF_NODE_MODULE, "const $1 = globalThis.process.getBuiltinModule('$2');");
      return contents === source ? undefined : { contents, loader: 'js' };
    });
  },
};
// A package bundled here may need its own copy of a dependency (axios's https-proxy-agent 5, nested under axios) that
// differs from the project's (https-proxy-agent 9, a dependency of ours, so left external): an external require()
// from dist/ would find the project's copy at run time. Where the importer's copy is another file, it is bundled.
const BARE_SPECIFIER = /^(@[^/]+\/)?[^./][^/]*/;
const nestedCopiesBundled = {
  name: 'nested-copies-bundled',
  setup(bundler) {
    const fromProject = createRequire(path.join(projectRoot, 'package.json'));
    bundler.onResolve({ filter: BARE_SPECIFIER }, ({ path: specifier, importer, resolveDir }) => {
      if (!importer.includes(`${path.sep}node_modules${path.sep}`) || isBuiltin(specifier)) return undefined;
      try {
        const importersCopy = createRequire(path.join(resolveDir, 'x.js')).resolve(specifier);
        return importersCopy === fromProject.resolve(specifier) ? undefined : { path: importersCopy };
      } catch {
        return undefined;
      }
    });
  },
};
const cliOutputs = await buildCliBundles(
  {
    ...cliBundle,
    plugins: [nestedCopiesBundled, lazyChildProcessInCommander, noFetchInAxios, lazyMimeTypesInFormData, nodeModulesAsTheyAre],
    external: Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !STARTUP_PACKAGES.includes(name)),
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    // import() of a package left in node_modules becomes require() too, as its static imports do: one loader for them.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    metafile: true,
    minifyWhitespace: true,
    minifySyntax: true,
  },
  'src-main/cli/main.ts',
);
const launcher = await build({
  ...nodeBundle,
  entryPoints: { 'cli/mlso-dl': 'src-main/cli/launch/launch.ts' },
  metafile: true,
});
await removeStaleChunks({ outputs: { ...cliOutputs, ...launcher.metafile.outputs } }, 'dist/cli');
// The font figures are drawn with (quicklook --title/--colorbar), beside the chunks that look for it in ../fonts.
await cp(path.join(projectRoot, 'assets', 'fonts'), path.join(projectRoot, 'dist', 'fonts'), { recursive: true });

// The Electron main process (package.json "main"); Electron 45 loads ESM entry points and bundles Node 22.
await build({ ...nodeBundle, entryPoints: { 'electron/main': 'src-main/electron/main.ts' }, target: 'node22', external: ['electron'] });

// The preload runs sandboxed, where require() knows only 'electron': everything else is bundled in, as CommonJS.
const { packages: _allBundled, ...preloadBundle } = nodeBundle;
await build({
  ...preloadBundle,
  entryPoints: { 'electron/preload': 'src-main/electron/preload.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  target: 'node22',
  external: ['electron'],
  sourcemap: 'inline',
});

/**
 * Earlier builds split the command line into chunks named by a content hash (dist/cli/chunk-XXXXXXXX.js): those
 * are removed, or dist/ (and a package made from it) would keep them for good. One is left for a minute after its
 * build was replaced, as a run started just before may still be loading it.
 */
async function removeStaleChunks(metafile, folder) {
  const outputs = new Set(Object.keys(metafile.outputs).map((output) => path.resolve(projectRoot, output)));
  const directory = path.resolve(projectRoot, folder);
  for (const name of await readdir(directory)) {
    const file = path.join(directory, name);
    if (!/-[A-Z0-9]{8}\.js(\.map)?$/.test(name) || outputs.has(file)) continue;
    if (Date.now() - (await stat(file)).mtimeMs > 60_000) await rm(file, { force: true });
  }
}
