import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { stationStructuredDataScript } from './src/contracts/structured-data';

const apiPort = Number(process.env.PORT ?? 3000);

/** Writes the station's JSON-LD into index.html from the tier prices of src/contracts (one source). */
function structuredData(): Plugin {
  const marker = '<!-- station-structured-data -->';
  return {
    name: 'dhr-structured-data',
    transformIndexHtml(html) {
      if (!html.includes(marker)) throw new Error(`index.html lacks ${marker}`);
      return html.replace(marker, stationStructuredDataScript());
    },
  };
}

/**
 * Writes a .br (best quality) and a .gz beside every compressible build file, which the server
 * sends as they are (preCompressed in src/server/plugins/web.ts): smaller than compressing on
 * each request, and no CPU spent on it.
 */
function precompress(): Plugin {
  const compressible = /\.(js|css|svg|json|webmanifest|txt)$/;
  return {
    name: 'dhr-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir;
      if (!dir) return;
      for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        const file = path.join(dir, entry);
        if (!compressible.test(file) || !fs.statSync(file).isFile()) continue;
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

// The web app lives in src/web; its build goes to dist/web, which the server serves.
export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: fileURLToPath(new URL('./src/web/public', import.meta.url)),
  plugins: [react(), tailwindcss(), structuredData(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // A browser without <link rel=modulepreload> (Safari before 17) still loads the chunks a page
    // imports, one step later: not worth a polyfill in every first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Everything the entry imports statically goes into the entry chunk, which lazy chunks import
      // from: one file compresses better than the half-dozen shared chunks the bundler would cut it
      // into (2.8 KB less gzip on `/`), and the first load is one request (docs/decisions/0010).
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 2 },
            // The icons of the lazily loaded pages in one file (5.7 KB br) instead of one file each:
            // /shop went from 18 requests for scripts to 10, /vip from 12 to 9 (ADR 0022).
            { name: 'icons', test: /[\\/]lucide-react[\\/]/, priority: 1 },
          ],
        },
      },
      // The app's own modules only declare things (CSS aside): a barrel's re-export that the first
      // load does not use then stays out of the first load instead of pulling its module in.
      treeshake: { moduleSideEffects: (id: string) => !/\/src\/(web|contracts)\/.*\.tsx?$/.test(id) || id.endsWith('/src/web/main.tsx') },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': `http://127.0.0.1:${apiPort}`, '/metrics': `http://127.0.0.1:${apiPort}` },
  },
});
