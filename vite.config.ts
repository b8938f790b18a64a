import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The SPA lives in web/; the server serves dist/web in production and proxies nothing in dev
// (run `npm run dev:server` and `npm run dev:web`; Vite proxies /api to the server).
export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } } },
});
