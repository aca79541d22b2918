import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev:web`: Vite's dev server with hot reload, every API, socket and sign-in path sent to a running
// `bosun serve` (BOSUN_URL, default http://127.0.0.1:3000), so the page and the API share one origin as in production.
const target = process.env.BOSUN_URL ?? 'http://127.0.0.1:3000';
const proxied = ['/api', '/auth', '/sockets', '/sandboxes', '/docs', '/openapi.json', '/ready', '/alive', '/health'];

/**
 * `@bosun/client` loads `node:http(s)` only when it runs in Node (a dynamic import behind a check): in the browser
 * build they resolve to an empty module instead of a warning at every build.
 */
const nodeOnlyModules = {
  name: 'node-only-modules',
  enforce: 'pre' as const,
  resolveId: (id: string) => (id === 'node:http' || id === 'node:https' ? '\0node-only' : undefined),
  load: (id: string) => (id === '\0node-only' ? 'export default {};' : undefined),
};

export default defineConfig({
  plugins: [nodeOnlyModules, react()],
  server: {
    proxy: Object.fromEntries(
      proxied.map((path) => [path, { target, ws: path === '/sockets' || path === '/sandboxes' }]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The first load's budget is measured compressed (bench/web-first-load.ts); Rolldown's warning reads raw bytes.
    chunkSizeWarningLimit: 600,
  },
});
