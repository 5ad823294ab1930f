import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A production install (`npm ci && npm run build && npm prune --omit=dev && npm start`) keeps only
 * `dependencies`: every package that `npm start` loads must be one of them. Walks the static imports
 * from the start script's entry points (type-only imports are erased, dynamic ones are optional).
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
  it('starts with runtime dependencies only', () => {
    const start = pkg.scripts.start ?? '';
    // "tsx a.ts && tsx b.ts": every command is a runtime dependency, every file an entry point.
    const commands = start.split('&&').map((c) => c.trim().split(/\s+/));
    const entries = commands.map((c) => path.join(root, c[1] ?? ''));
    for (const c of commands) expect(pkg.dependencies, `'${c[0]}' runs npm start`).toHaveProperty(c[0] ?? '');
    expect(entries.map((e) => path.relative(root, e))).toContain('src/server/main.ts');
    const missing = [...packagesReachedFrom(entries)].filter(([name]) => !(name in pkg.dependencies));
    expect(missing.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([]);
  });
});
