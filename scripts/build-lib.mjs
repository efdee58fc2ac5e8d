// Builds the library (`import ... from 'mlso-downloader'`): an esbuild bundle of src-main/lib/index.ts to
// dist/lib/index.js, dependencies external like the other Node bundles, and its TypeScript declarations in
// dist/lib/types, emitted by tsc (tsconfig.lib.json).
// The sources import each other without file extensions (moduleResolution "bundler"); Node's own rules
// (moduleResolution node16/nodenext, what most Node TypeScript projects use) resolve a relative import in a
// declaration file only with its extension. So the emit rewrites every relative specifier to the emitted
// file it means ('./schemas' -> './schemas.js'), and refuses one that leads outside the declarations.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { nodeBundle, projectRoot } from './node-bundle-options.mjs';

const LIB_FOLDER = path.join(projectRoot, 'dist', 'lib');
const CONFIG_FILE = path.join(projectRoot, 'tsconfig.lib.json');

await rm(LIB_FOLDER, { recursive: true, force: true });
await build({ ...nodeBundle, entryPoints: { 'lib/index': 'src-main/lib/index.ts' } });
emitDeclarations();

function emitDeclarations() {
  const config = ts.getParsedCommandLineOfConfigFile(CONFIG_FILE, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail });
  if (!config) throw new Error(`Cannot read ${CONFIG_FILE}.`);
  if (config.errors.length > 0) fail(config.errors);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) fail(problems);
  const result = program.emit(undefined, undefined, undefined, true, { afterDeclarations: [withNodeSpecifiers(config.options)] });
  if (result.diagnostics.length > 0) fail(result.diagnostics);
}

/** A declaration transform: each relative module specifier becomes the path of the emitted .js it stands for. */
function withNodeSpecifiers(options) {
  return (context) => {
    const { factory } = context;
    return (file) => {
      if (!ts.isSourceFile(file)) return file;
      const rewrite = (specifier) => factory.createStringLiteral(nodeSpecifier(specifier.text, file.fileName, options));
      const visit = (node) => {
        if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && isRelative(node.moduleSpecifier.text)) {
          return factory.updateImportDeclaration(node, node.modifiers, node.importClause, rewrite(node.moduleSpecifier), node.attributes);
        }
        if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && isRelative(node.moduleSpecifier.text)) {
          return factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, rewrite(node.moduleSpecifier), node.attributes);
        }
        if (
          ts.isImportTypeNode(node) &&
          ts.isLiteralTypeNode(node.argument) &&
          ts.isStringLiteral(node.argument.literal) &&
          isRelative(node.argument.literal.text)
        ) {
          const argument = factory.updateLiteralTypeNode(node.argument, rewrite(node.argument.literal));
          return factory.updateImportTypeNode(node, argument, node.attributes, node.qualifier, node.typeArguments, node.isTypeOf);
        }
        return ts.visitEachChild(node, visit, context);
      };
      return ts.visitEachChild(file, visit, context);
    };
  };
}

function isRelative(specifier) {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

function nodeSpecifier(specifier, containingFile, options) {
  const resolved = ts.resolveModuleName(specifier, containingFile, options, ts.sys).resolvedModule;
  const target = resolved?.resolvedFileName;
  // Only the project's own TypeScript sources get declarations in dist/lib/types; anything else would dangle.
  if (
    !target ||
    resolved.isExternalLibraryImport ||
    !/\.tsx?$/.test(target) ||
    /\.d\.ts$/.test(target) ||
    path.relative(projectRoot, target).startsWith('..')
  ) {
    throw new Error(`${path.relative(projectRoot, containingFile)} imports "${specifier}", which has no declaration in dist/lib/types.`);
  }
  const relative = path
    .relative(path.dirname(containingFile), target.replace(/\.tsx?$/, '.js'))
    .split(path.sep)
    .join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

function fail(diagnostics) {
  const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => projectRoot, getNewLine: () => '\n' };
  throw new Error(`The library's declarations did not build:\n${ts.formatDiagnostics(list, host)}`);
}
