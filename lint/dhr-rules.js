// DHR's own lint rules: the structure docs/conventions.md describes, enforced. eslint.config.js
// turns them on; lint/dhr-rules.test.ts shows each one refusing a deliberate violation.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');

/**
 * Web features in dependency order: a feature may import (through its index) only features listed
 * before it, so feature imports can never form a cycle. A new feature goes after what it uses.
 */
const FEATURE_LAYERS = ['auth', 'radio', 'chat', 'tracks', 'community', 'news', 'channels', 'home', 'admin', 'visitors', 'submissions', 'shop', 'vip'];

/**
 * Import boundaries (docs/conventions.md): contracts import nothing from server
 * or web; server and web do not import each other; the shared web parts (components/, lib/) import
 * no feature; a web feature imports another feature only through its index, and only a feature
 * below it in FEATURE_LAYERS.
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
      if (rel[0] === 'contracts' && (target[0] === 'server' || target[0] === 'web')) return report('src/contracts must not import from server or web');
      if (rel[0] === 'server' && target[0] === 'web') return report('the server must not import the web app');
      if (rel[0] === 'web' && target[0] === 'server') return report('the web app must not import the server');
      if (rel[0] === 'web' && (rel[1] === 'components' || rel[1] === 'lib') && target[0] === 'web' && target[1] === 'features')
        return report(`src/web/${rel[1]} is shared by every feature and must not import one`);
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

/** Repo-relative path of a file, with forward slashes. */
const relative = (file) => path.relative(root, file).split(path.sep).join('/');
const isTest = (rel) => rel.startsWith('tests/') || /\.test\.tsx?$/.test(rel);
const schemaDir = path.join(src, 'server', 'db', 'schema');

/**
 * Who may touch each table, read from the doc comment next to it in src/server/db/schema:
 *   @owner  the one repository that reads and writes it
 *   @reads  a file that may join it in a query but never insert, update or delete it
 *   @writes a listed exception (the demo seed, a bench that fills 100,000 rows in one statement)
 * The schema is our own TypeScript, so a pattern over its text is enough here.
 */
export function readTableOwnership(dir = schemaDir) {
  const tables = new Map();
  const declaration = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const (\w+) = pgTable\(/g;
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    for (const [, doc = '', table = ''] of text.matchAll(declaration)) {
      const entry = { schemaFile: `src/server/db/schema/${name}`, owner: undefined, reads: new Set(), writes: new Set() };
      for (const [, tag, file = ''] of doc.matchAll(/@(owner|reads|writes)\s+(\S+)/g)) {
        if (tag === 'owner') entry.owner = file;
        else entry[tag].add(file);
      }
      tables.set(table, entry);
    }
    // A table without a doc comment has no owner: the rule reports it in the schema file.
    for (const [, table = ''] of text.matchAll(/export const (\w+) = pgTable\(/g)) {
      if (!tables.has(table)) tables.set(table, { schemaFile: `src/server/db/schema/${name}`, owner: undefined, reads: new Set(), writes: new Set() });
    }
  }
  return tables;
}
let ownership;

/** True when an import specifier from `file` names the schema (its index or one of its files). */
function importsSchema(file, spec) {
  if (typeof spec !== 'string' || !spec.startsWith('.')) return false;
  const target = path.resolve(path.dirname(file), spec);
  return target === schemaDir || path.dirname(target) === schemaDir;
}

const WRITES = new Set(['insert', 'update', 'delete']);

/**
 * A table object from src/server/db/schema is imported (as a value) only by its owner, by a file
 * listed as reading it (joins, never writes), or by a listed exception. Tests are free to set up
 * rows directly.
 */
const tableOwnership = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(context.filename);
    if (isTest(rel)) return {};
    ownership ??= readTableOwnership();
    if (rel.startsWith('src/server/db/schema/')) {
      return {
        Program() {
          for (const [table, entry] of ownership) {
            if (entry.schemaFile === rel && !entry.owner) {
              context.report({ loc: { line: 1, column: 0 }, message: `table '${table}' has no @owner: name its repository in the doc comment above it` });
            }
          }
        },
      };
    }
    const readOnly = new Map();
    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type' || !importsSchema(context.filename, node.source.value)) return;
        for (const spec of node.specifiers) {
          if (spec.type === 'ImportNamespaceSpecifier') {
            if (path.dirname(context.filename) !== path.join(src, 'server', 'db')) {
              context.report({ node: spec, message: 'import tables by name from the schema (the whole schema is for the database client only)' });
            }
            continue;
          }
          if (spec.type !== 'ImportSpecifier' || spec.importKind === 'type') continue;
          const table = spec.imported.name;
          const entry = ownership.get(table);
          if (!entry || entry.owner === rel || entry.writes.has(rel)) continue;
          if (entry.reads.has(rel)) {
            readOnly.set(spec.local.name, table);
            continue;
          }
          context.report({
            node: spec,
            message: `table '${table}' belongs to ${entry.owner ?? 'no owner yet'}: call its functions, or list this file next to the table in ${entry.schemaFile}`,
          });
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        const arg = node.arguments[0];
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !WRITES.has(callee.property.name)) return;
        if (arg?.type !== 'Identifier' || !readOnly.has(arg.name)) return;
        const table = readOnly.get(arg.name);
        context.report({ node, message: `this file may only read '${table}' (@reads): ${callee.property.name} it through ${ownership.get(table)?.owner}` });
      },
    };
  },
};

/**
 * SQL lives in repositories: in src/server, only a file that owns, reads or writes a table (see
 * table-ownership) or a *-repository.ts, and the database layer itself, import query builders from
 * drizzle-orm. Services and routes call repository functions.
 */
const sqlInRepositories = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(context.filename);
    if (!rel.startsWith('src/server/') || rel.startsWith('src/server/db/') || isTest(rel) || rel.endsWith('-repository.ts')) return {};
    ownership ??= readTableOwnership();
    const touchesTables = [...ownership.values()].some((e) => e.owner === rel || e.reads.has(rel) || e.writes.has(rel));
    if (touchesTables) return {};
    return {
      ImportDeclaration(node) {
        const from = node.source.value;
        if (node.importKind === 'type' || typeof from !== 'string' || !(from === 'drizzle-orm' || from.startsWith('drizzle-orm/'))) return;
        if (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type')) return;
        context.report({ node, message: `SQL lives in repositories: move this query into the module's *-repository.ts (${rel} is not one)` });
      },
    };
  },
};

/** Timers belong to a module's -plugin.ts (started on ready, stopped on close), not to its routes. */
const noTimersInRoutes = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    if (!/-routes\.ts$/.test(context.filename)) return {};
    return {
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'setInterval') {
          context.report({ node, message: "a timer in a routes file: start it in the module's -plugin.ts (onReady) and stop it on close" });
        }
      },
    };
  },
};

/**
 * The server calls out over HTTP only through src/server/lib/outbound-http.ts (safeFetch for addresses
 * users give, callService and serviceJson for configured services): the global fetch, anywhere else
 * in src/server, skips its timeouts, size cap, retries and address filter.
 */
const OUTBOUND_MODULE = 'src/server/lib/outbound-http.ts';
const outboundHttpOnly = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(context.filename);
    if (!rel.startsWith('src/server/') || rel === OUTBOUND_MODULE || isTest(rel)) return {};
    const isGlobalFetch = (node) => {
      const callee = node.callee;
      if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'globalThis') {
        return callee.property.type === 'Identifier' && callee.property.name === 'fetch';
      }
      if (callee.type !== 'Identifier' || callee.name !== 'fetch') return false;
      // A local binding named fetch is not the global one.
      for (let scope = context.sourceCode.getScope(node); scope; scope = scope.upper) {
        const variable = scope.set.get('fetch');
        if (variable && variable.defs.length > 0) return false;
      }
      return true;
    };
    return {
      CallExpression(node) {
        if (isGlobalFetch(node))
          context.report({ node, message: `outbound HTTP goes through ${OUTBOUND_MODULE} (safeFetch, callService or serviceJson), not the global fetch` });
      },
    };
  },
};

/**
 * Nothing calls out inside a transaction (docs/decisions/0023-member-grants-and-bulk-runs.md): a
 * transaction holds a connection (and on PGlite every other query) until it ends, so an outbound HTTP
 * call (lib/outbound-http.ts and the platform clients and recognisers built on it), a mail sent,
 * a storage upload or a recognition inside a `transaction(...)` callback holds the database for as
 * long as the other side takes. Call out first, then open a short transaction.
 */
const OUTBOUND_CALLERS = [
  'src/server/lib/outbound-http',
  'src/server/lib/uploads',
  'src/server/modules/platforms/clients',
  'src/server/modules/platforms/http',
  'src/server/modules/tracks/recognizers',
];
const OUTBOUND_FUNCTION = /^(safeFetch|callService|serviceJson|storeImageUpload|fetch[A-Z]\w*|getJson|recognize\w*|captureAudio)$/;
const noOutboundInTransaction = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(context.filename);
    if (!rel.startsWith('src/server/') || isTest(rel)) return {};
    const outbound = new Set();
    const callbacks = new WeakSet();
    let depth = 0;
    const isTransactionCall = (node) =>
      (node.callee.type === 'MemberExpression' && node.callee.property.type === 'Identifier' && node.callee.property.name === 'transaction') ||
      (node.callee.type === 'Identifier' && node.callee.name === 'transaction');
    const objectName = (node) => {
      if (node.type === 'Identifier') return node.name;
      if (node.type === 'MemberExpression' && node.property.type === 'Identifier') return node.property.name;
      return '';
    };
    const refused = (node) => {
      const callee = node.callee;
      if (callee.type === 'Identifier') return outbound.has(callee.name) ? callee.name : null;
      if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return null;
      const method = callee.property.name;
      const on = objectName(callee.object);
      if (/mailer$/i.test(on) && (method === 'send' || method === 'sendLater')) return `${on}.${method}`;
      if (/storage$/i.test(on) && method === 'put') return `${on}.put`;
      return null;
    };
    const enter = (node) => {
      if (callbacks.has(node)) depth++;
    };
    const leave = (node) => {
      if (callbacks.has(node)) depth--;
    };
    return {
      ImportDeclaration(node) {
        const spec = node.source.value;
        if (typeof spec !== 'string' || !spec.startsWith('.')) return;
        const target = path
          .relative(root, path.resolve(path.dirname(context.filename), spec))
          .split(path.sep)
          .join('/')
          .replace(/\.(ts|js)$/, '');
        if (!OUTBOUND_CALLERS.includes(target)) return;
        for (const s of node.specifiers) {
          if (s.type === 'ImportSpecifier' && s.importKind !== 'type' && OUTBOUND_FUNCTION.test(s.imported.name ?? '')) outbound.add(s.local.name);
        }
      },
      CallExpression(node) {
        if (isTransactionCall(node)) {
          for (const arg of node.arguments) if (arg.type === 'ArrowFunctionExpression' || arg.type === 'FunctionExpression') callbacks.add(arg);
        }
        if (depth === 0) return;
        const name = refused(node);
        if (name) context.report({ node, message: `${name} calls out inside a transaction: call it before the transaction opens (or after it ends)` });
      },
      ArrowFunctionExpression: enter,
      'ArrowFunctionExpression:exit': leave,
      FunctionExpression: enter,
      'FunctionExpression:exit': leave,
    };
  },
};

/**
 * Modules share state through the composition root (src/server/modules/index.ts), as constructor
 * arguments and plugin options, never as Fastify decorators: a decorator is a dependency no import
 * shows. Decorators stay for the app's own infrastructure and request-level needs, in these files.
 */
const DECORATOR_FILES = new Set([
  'src/server/app.ts',
  'src/server/plugins/access.ts',
  'src/server/plugins/cors.ts',
  'src/server/plugins/memory-answers.ts',
  'src/server/plugins/metrics.ts',
  'src/server/plugins/page-hints.ts',
  'src/server/plugins/request-bodies.ts',
  'src/server/lib/mail.ts',
  'src/server/lib/storage/storage-plugin.ts',
]);
const DECORATE = new Set(['decorate', 'decorateRequest', 'decorateReply']);
const noModuleDecorators = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(context.filename);
    if (!rel.startsWith('src/server/') || DECORATOR_FILES.has(rel) || isTest(rel)) return {};
    const message = 'modules share objects through the composition root (src/server/modules/index.ts) as plugin options, not Fastify decorators';
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && DECORATE.has(callee.property.name))
          context.report({ node, message });
      },
      TSModuleDeclaration(node) {
        if (node.id.type === 'Literal' && node.id.value === 'fastify') context.report({ node, message });
      },
    };
  },
};

/**
 * Every route is registered in a `*-routes.ts` file (docs/conventions.md "A server module"): plugins
 * only wire routes, jobs and listeners, so a reader finds each URL where its file name says.
 */
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'route', 'all']);
const routesInRoutesFiles = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(context.filename);
    if (!rel.startsWith('src/server/modules/') || /-routes\.ts$/.test(rel) || isTest(rel)) return {};
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || callee.object.name !== 'app') return;
        if (callee.property.type !== 'Identifier' || !ROUTE_METHODS.has(callee.property.name)) return;
        // app.route({ url, handler }) takes one object; app.get(path, …) a path and a handler (one argument is no route).
        const isRoute = callee.property.name === 'route' ? node.arguments[0]?.type === 'ObjectExpression' : node.arguments.length >= 2;
        if (!isRoute) return;
        context.report({
          node,
          message: `a route registered outside a -routes.ts file: move it to the module's <thing>-routes.ts and register that from the plugin`,
        });
      },
    };
  },
};

export const dhrRules = {
  boundaries,
  'module-cycles': moduleCycles,
  'table-ownership': tableOwnership,
  'sql-in-repositories': sqlInRepositories,
  'no-timers-in-routes': noTimersInRoutes,
  'outbound-http-only': outboundHttpOnly,
  'no-outbound-in-transaction': noOutboundInTransaction,
  'no-module-decorators': noModuleDecorators,
  'routes-in-routes-files': routesInRoutesFiles,
};
