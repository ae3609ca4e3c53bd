// The web app's bundle (docs/adr/0023-web-app-stack.md): built into dist/, served by the server under
// /assets with the page shell at every web_url; no CDN, nothing fetched at run time.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    target: 'es2022',
    // One bundle for every page (React, TanStack Query, the tRPC client): ~120 kB gzipped, loaded once.
    chunkSizeWarningLimit: 1024,
  },
});
