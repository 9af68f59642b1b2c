import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Explicit entries: our folders are src-main / src-preload / src-renderer, not electron-vite's defaults.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // entry.ts handles `--switchboard-run-script` first, then imports main.ts (a chunk) for the app itself.
      lib: { entry: resolve(__dirname, 'src-main/electron/entry.ts'), formats: ['es'] },
      // package.json "main" points here; lib.fileName is ignored for the main build. Chunks stay beside it:
      // core/support/paths.ts finds resources/ from its own file's folder.
      rolldownOptions: { output: { entryFileNames: 'index.js', chunkFileNames: '[name]-[hash].js' } },
      externalizeDeps: true,
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads cannot load ESM: one CommonJS file.
      lib: { entry: resolve(__dirname, 'src-preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      rolldownOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
