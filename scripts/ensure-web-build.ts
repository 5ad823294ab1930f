// `npm start` calls this first: build the web app when dist/web is missing or older than its sources.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

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

const builtAt = fs.statSync(builtIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sourcesAt = Math.max(...sources.map(newestMtime));
if (builtAt < sourcesAt) {
  console.log(builtAt ? 'Web app sources changed: rebuilding...' : 'Building the web app (first start)...');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  console.log('Web app built.');
}
