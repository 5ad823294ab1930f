// The embedded database's own thread (docs/decisions/0034-background-work-off-the-request-path.md).
// PGlite runs Postgres as WebAssembly on the thread that calls it: a 200 ms query there is 200 ms in
// which no request is answered. Here it runs on a worker thread; the server's thread sends statements
// (db/pglite-thread.ts) and keeps answering what needs no database meanwhile. Plain JavaScript so that
// the same file runs under tsx, vitest and the compiled server (the build copies it beside main.js).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** @type {{ dir?: string, startParams: string[] }} */
const { dir, startParams } = workerData;
const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');

// drizzle's PGlite session keeps dates, timestamps and intervals as Postgres text; every statement
// through this thread does the same, so rows are what they were with PGlite on the server's thread.
const asText = (value) => value;
const parsers = Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, asText]));

const options = { extensions: { pg_trgm }, startParams };
const pg = dir ? new PGlite(dir, options) : new PGlite(options);

/**
 * Open transactions by id. PGlite runs one transaction at a time and queues every other statement
 * behind it, as a single Postgres session would; the server's thread ends each with commit or rollback.
 * @type {Map<number, { tx?: any, commit?: () => void, rollback?: (err: Error) => void, opened?: () => void, settled?: Promise<unknown> }>}
 */
const open = new Map();
const listening = new Set();
/** Once closing, what PGlite's WebAssembly throws while it shuts down (emscripten's exit) is not an error. */
let closing = false;
process.on('unhandledRejection', (err) => {
  if (!closing) throw err;
});

class Rollback extends Error {}

/** The error's fields callers read (SQLSTATE code, constraint, detail), as plain data. */
function plainError(err) {
  const e = /** @type {Record<string, unknown>} */ (err ?? {});
  const out = { message: String(e.message ?? err), name: String(e.name ?? 'Error') };
  for (const key of ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'severity', 'position', 'where']) {
    if (e[key] !== undefined) out[key] = String(e[key]);
  }
  return out;
}

function target(tx) {
  if (tx === undefined) return pg;
  const entry = open.get(tx);
  if (!entry?.tx) throw new Error('Transaction is closed');
  return entry.tx;
}

async function begin(id) {
  const entry = {};
  const opened = new Promise((resolve) => (entry.opened = resolve));
  entry.settled = pg.transaction(
    (tx) =>
      new Promise((commit, rollback) => {
        Object.assign(entry, { tx, commit, rollback });
        entry.opened();
      }),
  );
  open.set(id, entry);
  try {
    // BEGIN itself may fail: then the transaction settles before it opens.
    await Promise.race([opened, entry.settled]);
  } catch (err) {
    open.delete(id);
    throw err;
  }
  return true;
}

async function end(id, commit) {
  const entry = open.get(id);
  open.delete(id);
  if (!entry?.tx) throw new Error('Transaction is closed');
  if (commit) entry.commit();
  else entry.rollback(new Rollback('rolled back'));
  try {
    await entry.settled;
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return true;
}

async function handle(msg) {
  switch (msg.op) {
    case 'query': {
      const res = await target(msg.tx).query(msg.sql, msg.params ?? [], { rowMode: msg.rowMode ?? 'object', parsers });
      return { rows: res.rows, fields: res.fields, affectedRows: res.affectedRows };
    }
    case 'exec':
      return await target(msg.tx).exec(msg.sql);
    case 'begin':
      return await begin(msg.tx);
    case 'commit':
      return await end(msg.tx, true);
    case 'rollback':
      return await end(msg.tx, false);
    case 'listen':
      if (!listening.has(msg.channel)) {
        listening.add(msg.channel);
        await pg.listen(msg.channel, (payload) => port.postMessage({ op: 'notify', channel: msg.channel, payload }));
      }
      return true;
    case 'close':
      closing = true;
      await pg.close();
      return true;
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

port.on('message', (msg) => {
  handle(msg).then(
    (result) => port.postMessage({ id: msg.id, result }),
    (err) => port.postMessage({ id: msg.id, error: plainError(err) }),
  );
});

pg.waitReady.then(
  () => port.postMessage({ op: 'ready' }),
  (err) => port.postMessage({ op: 'failed', error: plainError(err) }),
);
