// `npm start` calls this first: build the web app when dist/web is missing or older than its sources.
// Vite is a dev dependency: it is loaded only to build, so a production install (`npm run build`,
// then `npm prune --omit=dev`) starts without it.
import fs from 'node:fs';
import path from 'node:path';
import type { build as viteBuild } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/web/index.html');
const sources = ['src/web', 'src/contracts', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p));

function newestMtime(p: string): number {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

async function loadVite(): Promise<{ build: typeof viteBuild } | null> {
  try {
    return await import('vite');
  } catch {
    return null;
  }
}

const builtAt = fs.statSync(builtIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sourcesAt = Math.max(...sources.map(newestMtime));
if (builtAt < sourcesAt) {
  const vite = await loadVite();
  if (vite) {
    console.log(builtAt ? 'Web app sources changed: rebuilding...' : 'Building the web app (first start)...');
    await vite.build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
    console.log('Web app built.');
  } else if (builtAt) {
    // npm prune rewrites package-lock.json, so a production install looks "newer" than its build.
    console.log('Serving the web build in dist/web (Vite is not installed, so it is not rebuilt).');
  } else {
    console.error('There is no web build in dist/web and Vite is not installed: run `npm run build` before `npm prune --omit=dev`.');
    process.exit(1);
  }
}
