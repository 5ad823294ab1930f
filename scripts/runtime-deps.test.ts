import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * A production install (`npm ci && npm run build && npm prune --omit=dev && npm start`) keeps only
 * `dependencies`: every package that `npm start` loads must be one of them. Walks the static imports
 * from the server's entry point (type-only imports are erased, dynamic ones are optional).
 */
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const staticImport = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolveLocal(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return undefined;
}

function packagesReachedFrom(entries: string[]): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(staticImport)) {
      if (!spec) continue;
      if (spec.startsWith('.')) {
        const local = resolveLocal(file, spec);
        if (!local) throw new Error(`${path.relative(root, file)}: cannot resolve ${spec}`);
        queue.push(local);
      } else if (!builtins.has(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
        packages.set(name, path.relative(root, file));
      }
    }
  }
  return packages;
}

describe('production install', () => {
  it('starts compiled JavaScript under plain node, with runtime dependencies only', () => {
    // "node scripts/build.mjs --if-stale && node dist/server/main.js"
    const commands = (pkg.scripts.start ?? '').split('&&').map((c) => c.trim().split(/\s+/));
    expect(commands.map((c) => c[0])).toEqual(['node', 'node']);
    const files = commands.map((c) => c.find((arg) => /\.m?js$/.test(arg)) ?? '');
    expect(files).toEqual(['scripts/build.mjs', 'dist/server/main.js']);
    // The build script loads its build tools only when it builds: its static imports are built-ins.
    expect([...packagesReachedFrom([path.join(root, 'scripts/build.mjs')])]).toEqual([]);
    // dist/server/main.js bundles src/server/main.ts and leaves packages in node_modules.
    const missing = [...packagesReachedFrom([path.join(root, 'src/server/main.ts')])].filter(([name]) => !(name in pkg.dependencies));
    expect(missing.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([]);
  });
});

describe('install', () => {
  it('installs without engine warnings on the lowest Node that package.json (and the README) promise', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const promised = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const lowest = semver.minVersion(promised)?.version ?? '';
    expect(lowest).toMatch(/^20\./);
    const refusing = Object.entries(lock.packages)
      .map(([where, p]) => ({ where, version: p.version, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
      .filter((p) => p.node !== undefined && !semver.satisfies(lowest, p.node))
      .map((p) => `${p.where}@${p.version} wants node ${p.node}`);
    // Fix with an override in package.json to a release that supports it, or raise engines honestly.
    expect(refusing).toEqual([]);
  });
});
