#!/usr/bin/env node
// Entry of the `mlso-dl` command. The TypeScript sources are bundled into dist/ by `npm install`
// (the prepare script); in a checkout where that has not happened yet, build once, then run.

// Older Node fails later with errors that do not say what to do; say it first, in one line.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`mlso-dl needs Node.js 22.12 or newer and this is Node.js ${process.versions.node}: upgrade Node.js (https://nodejs.org).`);
  process.exit(1);
}
// Taken, not imported: an ES module import of one of Node's modules costs every start more than this.
const { existsSync } = process.getBuiltinModule('node:fs');

const bundle = new URL('../dist/cli/mlso-dl.js', import.meta.url);
if (!existsSync(bundle)) {
  // Loaded only here: every run pays for what this file imports, and a build is needed once at most.
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const script = fileURLToPath(new URL('../scripts/build-main.mjs', import.meta.url));
  const built = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.error('mlso-dl could not be built. Run "npm install" in the project folder and try again.');
    process.exit(2);
  }
}
await import(bundle.href);
