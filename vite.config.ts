// Builds the renderer (src-renderer/) into dist/renderer/. Asset paths are relative (`base: './'`) because
// the Electron window loads index.html from file:// and web mode serves the folder from its own root.
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: 'src-renderer',
  base: './',
  // The root is src-renderer/, so the shared svelte.config.js one level up is named explicitly.
  plugins: [svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Electron 45 ships a current Chromium; no legacy transforms needed.
    target: 'es2023',
    sourcemap: true,
  },
});
