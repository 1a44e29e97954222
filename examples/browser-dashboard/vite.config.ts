import { defineConfig } from 'vite';

// Served from any path (the test serves the build under its own origin), with nothing fetched from a CDN.
export default defineConfig({ root: import.meta.dirname, base: './', build: { outDir: 'dist', emptyOutDir: true } });
