// The command line as two CommonJS scripts, so that a start reads, and Node's compile cache restores, only what the
// start needs: dist/cli/mlso-dl.cjs holds src-main/cli/main.ts and what it imports statically (commander, the
// program's definition, its help texts); dist/cli/mlso-dl-commands.cjs holds what the commands load when they run
// (an import() in the first), required by the first on a command's first import().
// Every module is in one of the two scripts only: where the commands' code imports a module of the start-up script
// (the errors run-cli.ts tells apart, commander's), it gets that script's own instance, so classes and module state
// are the same for both. A build fails if a file ended up in both.
import path from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from './node-bundle-options.mjs';

const COMMANDS_SCRIPT = './mlso-dl-commands.cjs';
const START_UP_SCRIPT = './mlso-dl.cjs';

/**
 * Builds both scripts into dist/cli with `options` (esbuild's, CommonJS, without entry points); returns their
 * metafiles' outputs. Three passes: the start-up script's modules and the commands it loads on demand; the commands'
 * script, whose imports of start-up modules are noted; the start-up script again, handing those modules out.
 */
export async function buildCliBundles(options, mainEntry) {
  const onDemand = new Set();
  const probe = await build({ ...options, ...startUpParts(options, mainEntry, onDemand, []), write: false });
  const startUpFiles = new Set(filesOf(probe.metafile));
  const shared = new Set();
  const commands = await build({ ...options, ...commandParts(options, onDemand, startUpFiles, shared) });
  const startUp = await build({ ...options, ...startUpParts(options, mainEntry, new Set(), [...shared].sort()) });
  const inStartUp = new Set(filesOf(startUp.metafile));
  const inBoth = filesOf(commands.metafile).filter((file) => inStartUp.has(file));
  if (inBoth.length > 0) throw new Error(`In both command line scripts, so loaded twice: ${inBoth.join(', ')}`);
  return { ...startUp.metafile.outputs, ...commands.metafile.outputs };
}

/** A module's name in both scripts: its path from the project root, with forward slashes. */
const keyOf = (file) => path.relative(projectRoot, file).split(path.sep).join('/');

/** The project's and packages' files bundled (not esbuild's made-up modules), by key. */
const filesOf = (metafile) => Object.keys(metafile.inputs).filter((input) => !input.includes(':'));

/**
 * The start-up script: main.ts, plus the modules the commands' script takes from it (`shared`); `onDemand` collects
 * the modules it leaves to the commands' script.
 */
function startUpParts({ plugins: packagePlugins = [] }, mainEntry, onDemand, shared) {
  const handOut = shared.map((key, index) => `import * as m${index} from ${JSON.stringify(path.join(projectRoot, key))};`);
  const table = shared.map((key, index) => `${JSON.stringify(key)}: m${index}`);
  return {
    entryPoints: { 'cli/mlso-dl': 'mlso-dl-start-up' },
    plugins: [
      ...packagePlugins,
      commandsFromTheirScript(onDemand),
      virtualEntry('mlso-dl-start-up', [
        // The table first: its modules are ready before main.ts runs, so before any command can ask for one.
        "export { startUpModules } from 'mlso-dl-start-up-modules';",
        `import ${JSON.stringify(path.join(projectRoot, mainEntry))};`,
      ]),
      virtualEntry('mlso-dl-start-up-modules', [...handOut, `export const startUpModules = { ${table.join(', ')} };`]),
    ],
  };
}

/** Each import() of a project module becomes a require() of the commands' script, which initialises it there. */
function commandsFromTheirScript(onDemand) {
  return {
    name: 'commands-from-their-script',
    setup(bundler) {
      bundler.onResolve({ filter: /.*/ }, async ({ path: specifier, importer, resolveDir, kind, pluginData }) => {
        if (kind !== 'dynamic-import' || pluginData?.real || importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const real = await bundler.resolve(specifier, { importer, resolveDir, kind, pluginData: { real: true } });
        if (real.errors.length > 0 || real.external) return undefined;
        const key = keyOf(real.path);
        onDemand.add(key);
        return { path: key, namespace: 'in-commands-script' };
      });
      bundler.onLoad({ filter: /.*/, namespace: 'in-commands-script' }, ({ path: key }) => ({
        contents: `module.exports = require(${JSON.stringify(COMMANDS_SCRIPT)}).commandModule(${JSON.stringify(key)});`,
        loader: 'js',
      }));
      bundler.onResolve({ filter: new RegExp(`^${literal(COMMANDS_SCRIPT)}$`) }, () => ({ path: COMMANDS_SCRIPT, external: true }));
    },
  };
}

/**
 * The commands' script: a table of the modules the start-up script loads on demand, each initialised on its first
 * require(); an import of a start-up module (in `startUpFiles`) is that script's instance, and is noted in `shared`.
 */
function commandParts({ plugins: packagePlugins = [] }, onDemand, startUpFiles, shared) {
  const table = [...onDemand].sort().map((key) => `${JSON.stringify(key)}: () => require(${JSON.stringify(path.join(projectRoot, key))})`);
  return {
    entryPoints: { 'cli/mlso-dl-commands': 'mlso-dl-commands' },
    plugins: [
      ...packagePlugins,
      {
        name: 'start-up-modules',
        setup(bundler) {
          bundler.onResolve({ filter: /.*/ }, async ({ path: specifier, importer, resolveDir, kind, pluginData, namespace }) => {
            if (pluginData?.real || namespace !== 'file' || kind === 'entry-point') return undefined;
            const real = await bundler.resolve(specifier, { importer, resolveDir, kind, pluginData: { real: true } });
            if (real.errors.length > 0 || real.external || real.namespace !== 'file') return undefined;
            const key = keyOf(real.path);
            if (!startUpFiles.has(key)) return undefined;
            shared.add(key);
            return { path: key, namespace: 'in-start-up-script' };
          });
          bundler.onLoad({ filter: /.*/, namespace: 'in-start-up-script' }, ({ path: key }) => ({
            contents: `module.exports = require(${JSON.stringify(START_UP_SCRIPT)}).startUpModules[${JSON.stringify(key)}];`,
            loader: 'js',
          }));
          bundler.onResolve({ filter: new RegExp(`^${literal(START_UP_SCRIPT)}$`) }, () => ({ path: START_UP_SCRIPT, external: true }));
        },
      },
      virtualEntry('mlso-dl-commands', [`const modules = { ${table.join(', ')} };`, 'exports.commandModule = (key) => modules[key]();']),
    ],
  };
}

/** A module made of `lines`, resolved from the project root, named `name` wherever it is imported. */
function virtualEntry(name, lines) {
  return {
    name,
    setup(bundler) {
      bundler.onResolve({ filter: new RegExp(`^${literal(name)}$`) }, () => ({ path: name, namespace: name }));
      bundler.onLoad({ filter: /.*/, namespace: name }, () => ({ contents: lines.join('\n'), loader: 'js', resolveDir: projectRoot }));
    },
  };
}

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
