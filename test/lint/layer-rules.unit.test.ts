// The floors of the architecture are held by lint: this plants one violation of each rule in a file of the floor it
// guards and runs the project's own ESLint config on it, so a rule that stops firing (a glob that no longer matches,
// a later config block that overrides the options) fails here instead of letting the layers blur unnoticed.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ overrideConfigFile: path.resolve('eslint.config.js') });

/** Every message ESLint gives for `code` as if it were the file at `filePath` (relative to the repository). */
async function lint(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(filePath) });
  return result?.messages ?? [];
}

async function restrictedImports(filePath: string, code: string) {
  return (await lint(filePath, code)).filter((message) => message.ruleId === 'no-restricted-imports');
}

const plantedViolations: [rule: string, filePath: string, code: string][] = [
  [
    'src-shared imports nothing from src-main',
    'src-shared/filters/planted.ts',
    "import { MlsoError } from '../../src-main/core/errors';\nexport const x = MlsoError;\n",
  ],
  [
    'src-renderer imports nothing from src-main',
    'src-renderer/lib/planted.ts',
    "import type { AppCore } from '../../src-main/core/app/app-core';\nexport type X = AppCore;\n",
  ],
  ['src-shared imports no node: module', 'src-shared/coverage/planted.ts', "import { readFile } from 'node:fs/promises';\nexport const x = readFile;\n"],
  ['src-renderer imports no node: module', 'src-renderer/downloads/planted.ts', "import path from 'node:path';\nexport const x = path;\n"],
  ['src-shared imports no bare Node builtin', 'src-shared/files/planted.ts', "import { createHash } from 'crypto';\nexport const x = createHash;\n"],
  ['src-renderer imports no bare Node builtin', 'src-renderer/lib/planted.ts', "import { readFile } from 'fs/promises';\nexport const x = readFile;\n"],
  [
    'a Svelte component imports no node: module',
    'src-renderer/campaigns/Planted.svelte',
    '<script lang="ts">\n  import path from \'node:path\';\n  const x = path.sep;\n</script>\n\n<p>{x}</p>\n',
  ],
  ['src-renderer imports no electron', 'src-renderer/lib/planted.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"],
  [
    'src-main/core imports nothing from the emulator',
    'src-main/core/app/planted.ts',
    "import { createEmulator } from '../../emulator';\nexport const x = createEmulator;\n",
  ],
  ['src-main/core imports nothing from cli', 'src-main/core/downloads/planted.ts', "import { runCli } from '../../cli/run-cli';\nexport const x = runCli;\n"],
  ['src-main/core imports nothing from web', 'src-main/core/campaigns/planted.ts', "export { startWebApp } from '../../web/web-app';\n"],
  [
    'src-main/core imports nothing from electron/',
    'src-main/core/planted.ts',
    "import { runDesktopApp } from '../electron/desktop-app';\nexport const x = runDesktopApp;\n",
  ],
  ['src-main/core imports no electron', 'src-main/core/app/planted.ts', "import { app } from 'electron';\nexport const x = app;\n"],
  ['src-main/cli imports no electron', 'src-main/cli/planted.ts', "import { app } from 'electron';\nexport const x = app;\n"],
  [
    'src-main/core/downloads imports nothing from campaigns',
    'src-main/core/downloads/planted.ts',
    "import { CampaignStore } from '../campaigns/campaign-store';\nexport const x = CampaignStore;\n",
  ],
  [
    'src-main/core/downloads imports no campaigns type either',
    'src-main/core/downloads/planted.ts',
    "import type { CampaignRestore } from '../campaigns/campaign-backups';\nexport type X = CampaignRestore;\n",
  ],
  [
    'src-main/core/state imports no domain',
    'src-main/core/state/planted.ts',
    "import { DOWNLOAD_TABLES } from '../downloads/ledger-migrations';\nexport const x = DOWNLOAD_TABLES;\n",
  ],
  [
    'src-main/core/state imports nothing from cli either',
    'src-main/core/state/planted.ts',
    "import { runCli } from '../../cli/run-cli';\nexport const x = runCli;\n",
  ],
  [
    'src-science imports nothing from src-shared',
    'src-science/fits/planted.ts',
    "import { displayName } from '../../src-shared/format/display-text';\nexport const x = displayName;\n",
  ],
  [
    'src-science imports no src-shared type either',
    'src-science/figures/planted.ts',
    "import type { Result } from '../../src-shared/contract/contract';\nexport type X = Result<number>;\n",
  ],
  [
    'src-science imports nothing from src-main',
    'src-science/astro/planted.ts',
    "import { MlsoError } from '../../src-main/core/errors';\nexport const x = MlsoError;\n",
  ],
  [
    'src-science imports nothing from src-renderer',
    'src-science/figures/planted.ts',
    "import { takeWebToken } from '../../src-renderer/lib/api';\nexport const x = takeWebToken;\n",
  ],
  ['src-science imports no node: module', 'src-science/fits/planted.ts', "import { readFile } from 'node:fs/promises';\nexport const x = readFile;\n"],
  ['src-science imports no bare Node builtin', 'src-science/fits/planted.ts', "import { inflateSync } from 'zlib';\nexport const x = inflateSync;\n"],
  ['src-science imports no electron', 'src-science/figures/planted.ts', "import { nativeImage } from 'electron';\nexport const x = nativeImage;\n"],
  [
    'a renderer feature imports no feature it is not declared to use',
    'src-renderer/campaigns/planted.ts',
    "import { BrowseState } from '../browse/browse-state.svelte';\nexport const x = BrowseState;\n",
  ],
  [
    'a renderer feature imports no undeclared feature from a subfolder either',
    'src-renderer/quicklook/workers/planted.ts',
    "import { useDownloads } from '../../downloads/downloads.svelte';\nexport const x = useDownloads;\n",
  ],
  [
    'src-renderer/lib imports no feature, not even a type',
    'src-renderer/lib/planted.ts',
    "import type { CampaignsState } from '../campaigns/campaigns-state.svelte';\nexport type X = CampaignsState;\n",
  ],
  [
    'a renderer feature imports nothing from the shell',
    'src-renderer/browse/planted.ts',
    "import { useAppState } from '../shell/app-state.svelte';\nexport const x = useAppState;\n",
  ],
  [
    'a Svelte component of a feature imports nothing from the shell',
    'src-renderer/downloads/Planted.svelte',
    '<script lang="ts">\n  import App from \'../shell/App.svelte\';\n  const x = App;\n</script>\n\n<p>{typeof x}</p>\n',
  ],
  ['src-renderer/lib imports nothing from the shell', 'src-renderer/lib/planted.ts', "export { AppState } from '../shell/app-state.svelte';\n"],
  ['scripts/ imports nothing from test/', 'scripts/bench/planted.ts', "import { sha256Hex } from '../../test/helpers/sha256';\nexport const x = sha256Hex;\n"],
  ['scripts/ (.mjs) imports nothing from test/', 'scripts/planted.mjs', "import { sha256Hex } from '../test/helpers/sha256';\nexport const x = sha256Hex;\n"],
];

describe('the layer rules of eslint.config.js', () => {
  it.each(plantedViolations)('report a planted violation: %s', async (_rule, filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages, `${filePath}:\n${code}`).toHaveLength(1);
  });

  const cleanTexts: [what: string, filePath: string, code: string][] = [
    [
      'src-shared importing src-shared and a package',
      'src-shared/filters/planted.ts',
      "import { z } from 'zod';\nimport type { Result } from '../contract/contract';\nexport const x = z;\nexport type X = Result<number>;\n",
    ],
    [
      'src-science importing itself and a package',
      'src-science/fits/planted.ts',
      "import { decompressSync } from 'fflate';\nimport { FitsReadError } from './fits-file';\nimport { carringtonRotationAt } from '../astro/carrington';\nexport const x = [decompressSync, FitsReadError, carringtonRotationAt];\n",
    ],
    [
      'src-shared importing src-science',
      'src-shared/coverage/planted.ts',
      "import { carringtonRotationAt } from '../../src-science/astro/carrington';\nexport const x = carringtonRotationAt;\n",
    ],
    [
      'src-renderer importing src-science',
      'src-renderer/lib/planted.ts',
      "import { COLORMAPS } from '../../src-science/fits/colormaps';\nexport const x = COLORMAPS;\n",
    ],
    [
      'src-main/cli importing src-science and Node',
      'src-main/cli/planted.ts',
      "import { readFile } from 'node:fs/promises';\nimport { readFits } from '../../src-science/fits/fits-file';\nexport const x = [readFile, readFits];\n",
    ],
    [
      'src-renderer importing src-shared',
      'src-renderer/lib/planted.ts',
      "import { INVOKE_CHANNELS } from '../../src-shared/contract/contract';\nexport const x = INVOKE_CHANNELS;\n",
    ],
    [
      'a renderer feature importing itself, lib, src-shared and a feature it is declared to use',
      'src-renderer/browse/planted.ts',
      "import { formatCount } from '../lib/format';\nimport { useDownloads } from '../downloads/downloads.svelte';\nimport type { JobState } from '../../src-shared/downloads/job-state';\nimport { ResultsStore } from './results.svelte';\nexport const x = [formatCount, useDownloads, ResultsStore];\nexport type X = JobState;\n",
    ],
    [
      'a renderer feature subfolder importing its own feature',
      'src-renderer/quicklook/workers/planted.ts',
      "import { createFitsClient } from '../fits-worker-client';\nexport const x = createFitsClient;\n",
    ],
    [
      'the shell importing every feature',
      'src-renderer/shell/planted.ts',
      "import { BrowseState } from '../browse/browse-state.svelte';\nimport { CampaignsState } from '../campaigns/campaigns-state.svelte';\nimport { DownloadsStore } from '../downloads/downloads.svelte';\nimport { QuickLookState } from '../quicklook/quicklook-context.svelte';\nimport { WindowState } from '../lib/window-state.svelte';\nexport const x = [BrowseState, CampaignsState, DownloadsStore, QuickLookState, WindowState];\n",
    ],
    ['main.ts importing the shell', 'src-renderer/main.ts', "import App from './shell/App.svelte';\nexport const x = App;\n"],
    [
      'src-main/core importing Node, src-shared and itself',
      'src-main/core/app/planted.ts',
      "import path from 'node:path';\nimport { readFile } from 'fs/promises';\nimport { INVOKE_CHANNELS } from '../../../src-shared/contract/contract';\nimport { invokeHandler } from './invoke-handler';\nexport const x = [path, readFile, INVOKE_CHANNELS, invokeHandler];\n",
    ],
    [
      'src-main/core/downloads importing the state folder and the errors',
      'src-main/core/downloads/planted.ts',
      "import { StateDatabase } from '../state/state-database';\nimport { MlsoError } from '../errors';\nexport const x = [StateDatabase, MlsoError];\n",
    ],
    [
      'src-main/core/campaigns importing the downloads and the state folder',
      'src-main/core/campaigns/planted.ts',
      "import type { DownloadEngine } from '../downloads/download-engine';\nimport { StateDatabase } from '../state/state-database';\nexport type X = DownloadEngine;\nexport const x = StateDatabase;\n",
    ],
    [
      'src-main/electron importing electron and the core',
      'src-main/electron/planted.ts',
      "import { app } from 'electron';\nimport { createAppCore } from '../core/app/app-core';\nexport const x = [app, createAppCore];\n",
    ],
    ['src-main/web importing the emulator', 'src-main/web/planted.ts', "import { createEmulator } from '../emulator';\nexport const x = createEmulator;\n"],
    [
      'scripts/ importing src-main and Node',
      'scripts/bench/planted.ts',
      "import path from 'node:path';\nimport { createEmulator } from '../../src-main/emulator';\nexport const x = [path, createEmulator];\n",
    ],
    [
      'test/ importing scripts/ and src-main',
      'test/faults/planted.ts',
      "import { MIB } from '../../scripts/bench/scenario';\nimport { createEmulator } from '../../src-main/emulator';\nexport const x = [MIB, createEmulator];\n",
    ],
  ];

  it.each(cleanTexts)('pass a clean text: %s', async (_what, filePath, code) => {
    expect(await lint(filePath, code), `${filePath}:\n${code}`).toEqual([]);
  });
});
