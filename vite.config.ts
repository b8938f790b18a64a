import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression } from 'vite-plugin-compression2';

// The SPA lives in web/; the server serves dist/web in production and proxies nothing in dev
// (run `npm run dev:server` and `npm run dev:web`; Vite proxies /api to the server).
// Every built asset is also written brotli- and gzip-compressed beside itself; the server sends the variant the
// browser accepts (decision 012), so no request pays for compressing the same file again.
export default defineConfig({
  root: 'web',
  plugins: [
    react(),
    tailwindcss(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }),
  ],
  // Every browser the app supports preloads modules natively: no polyfill in the first chunk.
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: { polyfill: false },
    // Our own modules do nothing when imported (decision 013): a screen that imports a feature's public.ts gets only
    // the parts it uses. Style sheets are the exception.
    rollupOptions: {
      treeshake: { moduleSideEffects: (id) => id.endsWith('.css') || !/\/(web|domain)\//.test(id) },
    },
  },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } } },
});
