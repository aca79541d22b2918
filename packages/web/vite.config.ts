import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev:web`: Vite's dev server with hot reload, every API, socket and sign-in path sent to a running
// `bosun serve` (BOSUN_URL, default http://127.0.0.1:3000), so the page and the API share one origin as in production.
const target = process.env.BOSUN_URL ?? 'http://127.0.0.1:3000';
const proxied = ['/api', '/auth', '/sockets', '/sandboxes', '/docs', '/openapi.json', '/ready', '/alive', '/health'];

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(
      proxied.map((path) => [path, { target, ws: path === '/sockets' || path === '/sandboxes' }]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 400,
  },
});
