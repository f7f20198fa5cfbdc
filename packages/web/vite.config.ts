import { defineConfig } from 'vite';

// Vite 8 transforms TSX itself (oxc, automatic JSX runtime from tsconfig's "jsx": "react-jsx"), so no
// React plugin is needed; the only thing it would add is fast refresh in `vite dev`.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: true,
  },
  server: {
    proxy: { '/ws': { target: 'ws://localhost:8080', ws: true } },
  },
});
