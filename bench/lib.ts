import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Db } from '../src/server/db/client';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { findMemberByEmail, insertMember, promoteToAdmin } from '../src/server/modules/members/members-repository';

export interface BenchEntry {
  name: string;
  rps: number;
  p99Ms: number;
  baselineRps: number;
  ratio: number;
  [extra: string]: unknown;
}

export interface LoadResult {
  rps: number;
  /** Requests completed in the whole run. */
  total: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** Loads one URL with autocannon: 100 connections, `seconds` long. */
export async function load(url: string, seconds: number, connections = 100): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return {
    rps: Math.round(result.requests.average),
    total: result.requests.total,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

export interface Started {
  child: ChildProcess;
  stop: () => Promise<void>;
  /** Asks the preloaded bench/probe.mjs (only with `probe: true`) and resolves with its answer. */
  ask: (msg: string) => Promise<unknown>;
}

/** Starts a process and returns it with a stop function that waits for exit. */
export function startProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, opts: { probe?: boolean } = {}): Started {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', ...(opts.probe ? ['ipc' as const] : [])] });
  return {
    child,
    ask: (msg) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`probe did not answer '${msg}'`)), 30_000);
        child.once('message', (m) => {
          clearTimeout(timer);
          resolve(m);
        });
        child.send(msg);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

let built = false;
/**
 * Node's arguments that run DHR's server as `npm start` does (the compiled dist/server/main.js,
 * rebuilt first when its sources changed), optionally with bench/probe.mjs preloaded.
 */
export function serverArgs(root: string, opts: { probe?: boolean } = {}): string[] {
  if (!built) execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  built = true;
  // BENCH_PROFILE_DIR=/tmp/prof writes a V8 CPU profile of each server a bench starts (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE_DIR] : [];
  return [...profile, ...(opts.probe ? ['--import', path.join(root, 'bench/probe.mjs')] : []), path.join(root, 'dist/server/main.js')];
}

const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** True when the module at `moduleUrl` is the file node was started with (`npx tsx bench/x.ts`). */
export function isRunAlone(moduleUrl: string): boolean {
  return Boolean(process.argv[1]) && path.resolve(process.argv[1] ?? '') === fileURLToPath(moduleUrl);
}

/**
 * A bench file's own entry point: when the file is run by itself, runs `bench`, prints its entries and
 * records them when asked (recordIfAsked); a failure exits with 1. `npm run bench` imports the file
 * and calls the bench itself.
 */
export function whenRunAlone(moduleUrl: string, bench: () => Promise<{ name: string } | { name: string }[]>): void {
  if (!isRunAlone(moduleUrl)) return;
  bench().then(
    (result) => {
      const entries = Array.isArray(result) ? result : [result];
      console.log(JSON.stringify(entries, null, 2));
      recordIfAsked(BENCH_ROOT, entries);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/**
 * What a bench run by itself (`npx tsx bench/x.ts`) does with its figures: prints them always, and
 * writes them into bench/results.json only with BENCH_RECORD=1, so a probe or an experiment never
 * replaces the recorded run by accident. `npm run bench` records every bench it runs.
 */
export function recordIfAsked(root: string, results: readonly { name: string }[]): void {
  if (process.env.BENCH_RECORD === '1') {
    recordResults(root, results);
    console.log('recorded in bench/results.json');
  } else console.log('not recorded (BENCH_RECORD=1 records a run in bench/results.json)');
}

/**
 * Writes `results` into bench/results.json: an entry with the same name is replaced where it stands,
 * new ones are appended, and every other entry (other benches' figures) is kept as it is.
 */
export function recordResults(root: string, results: readonly { name: string }[]): void {
  const file = path.join(root, 'bench/results.json');
  const existing: unknown = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
  const out = (Array.isArray(existing) ? existing : []) as { name?: unknown }[];
  for (const r of results) {
    const at = out.findIndex((e) => e.name === r.name);
    if (at >= 0) out[at] = r;
    else out.push(r);
  }
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
}

/** CPU time (user + system) the process has used so far, in microseconds, from /proc/PID/stat. */
export function cpuMicros(pid: number): number {
  // Fields after the command name (which may hold spaces) start at ')'; utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}
/** Linux's USER_HZ, the unit of /proc/PID/stat times (100 on every mainstream build). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Gives process `pid` (every thread it has now, and so the ones they start) the CPUs `cpus` (a
 * taskset list such as '1' or '0-3'). False when the machine has one CPU or taskset is missing.
 * The public-reads bench puts the load generator and the server under test on cores of their own:
 * on a two-core machine the two otherwise trade places, and the same server measured twice in a row
 * differed by up to a fifth.
 */
export function pinToCpus(pid: number, cpus: string): boolean {
  if (os.availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Every CPU of the machine, as a taskset list. */
export const ALL_CPUS = `0-${os.availableParallelism() - 1}`;

/** An admin (made one if the address exists) with a fresh session in a bench database: its cookie. */
export async function benchAdminCookie(db: Db, email: string, username: string): Promise<string> {
  const known = await findMemberByEmail(db, email);
  if (known) await promoteToAdmin(db, known.id, {});
  const admin = known ?? (await insertMember(db, { email, username, isAdmin: true }));
  return `${SESSION_COOKIE}=${await createSession(db, admin.id)}`;
}

/** DHR's server as `npm start` runs it, on loopback `port`, its data under `dataDir` (or in PostgreSQL at `databaseUrl`). */
export function startBenchServer(root: string, port: number, dataDir: string, databaseUrl: string | undefined, env: NodeJS.ProcessEnv = {}): Started {
  return startProcess(process.execPath, serverArgs(root), {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
}

/**
 * A PostgreSQL database of its own for one bench on the server at `serverUrl` (a user who may CREATE
 * DATABASE): its URL, and drop() to remove it (connections left open are ended).
 */
export async function scratchDatabase(serverUrl: string, prefix = 'dhr_bench'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const onServer = async (statement: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await onServer(`CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
