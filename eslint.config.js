import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = path.dirname(new URL(import.meta.url).pathname);
const src = path.join(root, 'src');

/**
 * Web features in dependency order: a feature may import (through its index) only features listed
 * before it, so feature imports can never form a cycle. A new feature goes after what it uses.
 */
const FEATURE_LAYERS = ['auth', 'radio', 'tracks', 'community', 'news', 'channels', 'home', 'admin', 'live', 'submissions', 'shop', 'vip'];

/**
 * Import boundaries (docs/conventions.md): contracts import nothing from server
 * or web; server and web do not import each other; a web feature imports another feature only
 * through its index, and only a feature below it in FEATURE_LAYERS.
 */
const boundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    const rel = path.relative(src, file).split(path.sep);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.relative(src, path.resolve(path.dirname(file), spec)).split(path.sep);
      const report = (message) => context.report({ node, message });
      if (rel[0] === 'contracts' && (target[0] === 'server' || target[0] === 'web'))
        return report('src/contracts must not import from server or web');
      if (rel[0] === 'server' && target[0] === 'web') return report('the server must not import the web app');
      if (rel[0] === 'web' && target[0] === 'server') return report('the web app must not import the server');
      if (rel[0] === 'web' && rel[1] === 'features' && target[0] === 'web' && target[1] === 'features') {
        const own = rel[2];
        const other = target[2];
        const isIndex = target.length === 3 || (target.length === 4 && /^index(\.tsx?)?$/.test(target[3]));
        if (other === own) return;
        if (!isIndex) return report(`feature '${own}' must import feature '${other}' through its index only`);
        const ownLayer = FEATURE_LAYERS.indexOf(own);
        const otherLayer = FEATURE_LAYERS.indexOf(other);
        if (otherLayer === -1) return report(`feature '${other}' is missing from FEATURE_LAYERS in eslint.config.js`);
        if (ownLayer !== -1 && otherLayer >= ownLayer)
          report(`feature '${own}' must not import feature '${other}' (FEATURE_LAYERS: a feature imports only features listed before it)`);
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/**
 * Server modules (src/server/modules/<name>) form no cycle (docs/conventions.md): an import from
 * module A into module B is refused when B already depends on A, directly or through others. The
 * module graph is read from the source once per lint run.
 */
const modulesDir = path.join(src, 'server', 'modules');
let moduleGraph;
function serverModuleOf(file) {
  const rel = path.relative(modulesDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const [name, ...rest] = rel.split(path.sep);
  return rest.length ? name : undefined;
}
function readModuleGraph() {
  const graph = new Map();
  const importPattern = /(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]/g;
  for (const name of fs.readdirSync(modulesDir)) {
    const deps = new Set();
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name)) {
          for (const m of fs.readFileSync(full, 'utf8').matchAll(importPattern)) {
            const target = serverModuleOf(path.resolve(dir, m[1]));
            if (target && target !== name) deps.add(target);
          }
        }
      }
    };
    const dir = path.join(modulesDir, name);
    if (fs.statSync(dir).isDirectory()) walk(dir);
    graph.set(name, deps);
  }
  return graph;
}
function dependsOn(graph, from, to) {
  const seen = new Set();
  const stack = [from];
  while (stack.length) {
    const current = stack.pop();
    if (current === to) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    stack.push(...(graph.get(current) ?? []));
  }
  return false;
}
const moduleCycles = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const own = serverModuleOf(context.filename);
    if (!own) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = serverModuleOf(path.resolve(path.dirname(context.filename), spec));
      if (!target || target === own) return;
      moduleGraph ??= readModuleGraph();
      if (dependsOn(moduleGraph, target, own)) {
        context.report({ node, message: `server module '${own}' must not import '${target}': '${target}' already depends on '${own}' (a cycle)` });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'src/server/db/migrations/**', 'src/web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { dhr: { rules: { boundaries, 'module-cycles': moduleCycles } }, 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'dhr/boundaries': 'error',
      'dhr/module-cycles': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `import { type A }` still loads the module (and, in the web bundle, whatever it imports).
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
  // Plain JavaScript that runs before anything is compiled: linted without type information.
  { files: ['eslint.config.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
