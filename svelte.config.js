// Svelte options shared by the Vite build, vitest and svelte-check.
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

export default {
  preprocess: vitePreprocess({ script: false }),
  compilerOptions: {
    runes: true,
  },
};
