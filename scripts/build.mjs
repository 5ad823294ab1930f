// `npm run build` builds the web app (Vite, into dist/web) and the server (esbuild, into
// dist/server/main.js, with its migrations beside it). `npm start` calls it with --if-stale first,
// then runs the compiled server with plain `node`: no TypeScript loader at run time.
//
// Plain JavaScript on purpose: it has to run before anything is compiled. Vite and esbuild are dev
// dependencies, loaded only to build, so a production install (`npm run build`, then
// `npm prune --omit=dev`) starts from the build it already has.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ifStale = process.argv.includes('--if-stale');

const targets = [
  {
    name: 'web app',
    output: path.join(root, 'dist/web/index.html'),
    sources: ['src/web', 'src/contracts', 'vite.config.ts', 'package-lock.json'],
    build: buildWeb,
  },
  {
    name: 'server',
    output: path.join(root, 'dist/server/main.js'),
    sources: ['src/server', 'src/contracts', 'package-lock.json'],
    build: buildServer,
  },
];

function newestMtime(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

async function importOptional(name) {
  try {
    return await import(name);
  } catch {
    return null;
  }
}

async function buildWeb() {
  const vite = await importOptional('vite');
  if (!vite) return false;
  await vite.build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  return true;
}

async function buildServer() {
  const esbuild = await importOptional('esbuild');
  if (!esbuild) return false;
  const outdir = path.join(root, 'dist/server');
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    // The analytics rollup runs as a process of its own on PostgreSQL (modules/analytics/rollup-process.ts).
    entryPoints: { main: path.join(root, 'src/server/main.ts'), 'rollup-job': path.join(root, 'src/server/modules/analytics/rollup-job.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Packages stay in node_modules (native addons, WebAssembly, files they read beside themselves).
    packages: 'external',
    // The map is written for reading stack traces (NODE_OPTIONS=--enable-source-maps); it is not
    // loaded by default because holding it costs the idle server about 20 MB.
    sourcemap: true,
    logLevel: 'warning',
  });
  // The database client finds its migrations beside itself (./migrations from the bundle).
  fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
  // The embedded database's thread is started from its own file (db/pglite-thread.ts), beside the bundle.
  fs.copyFileSync(path.join(root, 'src/server/db/pglite-worker.mjs'), path.join(outdir, 'pglite-worker.mjs'));
  return true;
}

for (const target of targets) {
  const builtAt = fs.statSync(target.output, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sourcesAt = Math.max(...target.sources.map((p) => newestMtime(path.join(root, p))));
  if (ifStale && builtAt >= sourcesAt) continue;
  if (ifStale) console.log(builtAt ? `${target.name}: sources changed, rebuilding...` : `Building the ${target.name} (first start)...`);
  if (await target.build()) {
    if (ifStale) console.log(`${target.name}: built.`);
  } else if (builtAt) {
    // npm prune rewrites package-lock.json, so a production install looks "newer" than its build.
    console.log(`Using the ${target.name} build in ${path.relative(root, path.dirname(target.output))} (its build tool is not installed).`);
  } else {
    console.error(
      `There is no ${target.name} build in ${path.relative(root, path.dirname(target.output))} and its build tool is not installed: run \`npm run build\` before \`npm prune --omit=dev\`.`,
    );
    process.exit(1);
  }
}
