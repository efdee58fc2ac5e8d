// Builds the renderer (src-renderer/) into dist/renderer/. Asset paths are relative (`base: './'`) because
// the Electron window loads index.html from file:// and web mode serves the folder from its own root.
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { LOOPBACK_WEB_SOCKETS, contentSecurityPolicy } from './src-main/core/content-security-policy';

/** The app's one Content-Security-Policy, also as a <meta> tag in index.html (see content-security-policy.ts). */
const policyInPage: Plugin = {
  name: 'mlso-content-security-policy',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy(LOOPBACK_WEB_SOCKETS, { meta: true }) },
      injectTo: 'head-prepend',
    },
  ],
};

export default defineConfig({
  root: 'src-renderer',
  base: './',
  // The root is src-renderer/, so the shared svelte.config.js one level up is named explicitly.
  plugins: [policyInPage, svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
  // The FITS worker is inlined into the app's script and started from a blob: URL (see fits-worker-client.ts): a
  // classic script, which needs no module loading from that URL.
  worker: { format: 'iife' },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Electron 45 ships a current Chromium; no legacy transforms needed.
    target: 'es2023',
    sourcemap: true,
  },
});
