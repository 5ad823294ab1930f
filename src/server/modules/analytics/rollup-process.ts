import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MINUTE_MS } from '../../../contracts/time';
import type { Database } from '../../db/client';
import { atLowestPriority, lowestPriorityCommand } from '../../lib/low-priority';
import { runRollupJob, type RollupJob } from './rollups-service';

/** A rollup that has not ended in this long stops its process (a periodic job holds its lock until it ends). */
const ROLLUP_TIMEOUT_MS = 10 * MINUTE_MS;
/** The rollup process is ended after this long without a job; the next job starts another. */
export const ROLLUP_PROCESS_IDLE_MS = MINUTE_MS;
const STDERR_KEEP = 4096;

/** What the server sends the rollup process, and what it answers (rollup-job.ts). */
export interface RollupRequest {
  id: number;
  job: RollupJob;
  now: string;
}
export interface RollupReply {
  id: number;
  /** The job's error, when it failed. */
  error?: string;
}

/**
 * Runs a rollup where it takes nothing from listeners. On PostgreSQL it goes to a process of its own
 * (rollup-job.ts) at the lowest CPU priority, with its own connection, kept a minute for the next job:
 * folding a day's sessions is hundreds of milliseconds of JavaScript a run, which on the server's
 * thread, even in 1 ms turns, kept it busy half the time while rollups ran
 * (docs/decisions/0039-rollups-in-a-process-of-their-own.md). PGlite is served by this process
 * alone: there the rollup runs here, in the background lane's turns.
 */
export function runRollupOffTheServer(database: Database, databaseUrl: string | undefined, job: RollupJob, now: Date = new Date()): Promise<void> {
  if (database.kind !== 'postgres' || !databaseUrl) return runRollupJob(database.db, job, now);
  let worker = workers.get(databaseUrl);
  if (!worker?.alive) workers.set(databaseUrl, (worker = new RollupProcess(databaseUrl)));
  return worker.run(job, now);
}

/** The rollup process of each database this server rolls up (one in practice). */
const workers = new Map<string, RollupProcess>();

/** Stops every rollup process (the server closes): a job in flight fails. */
export function stopRollupProcesses(): void {
  for (const worker of workers.values()) worker.stop();
  workers.clear();
}

class RollupProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve: () => void; reject: (err: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private seq = 0;
  private stderr = '';
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  alive = true;

  constructor(databaseUrl: string) {
    const command = rollupCommand();
    this.child = spawn(command.bin, command.args, {
      cwd: command.cwd,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    if (this.child.pid !== undefined) atLowestPriority(this.child.pid);
    // Neither the process nor its channel keeps the server running; a job in flight is awaited by its caller.
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stderr as { unref?: () => void } | null)?.unref?.();
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEEP)));
    this.child.on('message', (reply: RollupReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      clearTimeout(waiter.timer);
      if (reply.error) waiter.reject(new Error(`The analytics rollup failed: ${reply.error}`));
      else waiter.resolve();
      // The server decides when an idle process goes, so a job is never sent to one that is leaving.
      if (this.pending.size === 0) this.idleTimer = setTimeout(() => this.stop(), ROLLUP_PROCESS_IDLE_MS).unref();
    });
    this.child.on('error', (err) => this.ended(err.message));
    this.child.on('exit', (code, signal) => this.ended(signal ?? `exit code ${code}`));
  }

  run(job: RollupJob, now: Date): Promise<void> {
    clearTimeout(this.idleTimer);
    const id = (this.seq += 1);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.stop('SIGKILL'), ROLLUP_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      const request: RollupRequest = { id, job, now: now.toISOString() };
      this.child.send(request, (err) => err && this.ended(err.message));
    });
  }

  /** Ends the process: by closing its channel (it closes its connection and exits), or by a signal. */
  stop(signal?: NodeJS.Signals): void {
    this.alive = false;
    clearTimeout(this.idleTimer);
    if (signal) this.child.kill(signal);
    else if (this.child.connected) this.child.disconnect();
  }

  private ended(reason: string): void {
    this.alive = false;
    clearTimeout(this.idleTimer);
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(`The analytics rollup failed (the rollup process ended: ${reason}): ${this.stderr.trim()}`));
    }
    this.pending.clear();
  }
}

/**
 * The command that starts the rollup process: the built rollup-job.js beside the server's bundle,
 * or, when the server runs from its TypeScript sources (tests, npm run dev), rollup-job.ts through tsx.
 */
export function rollupCommand(): { bin: string; args: string[]; cwd: string } {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSources ? './rollup-job.ts' : './rollup-job.js', import.meta.url));
  // From the sources, the project's root, where `--import tsx` is found.
  const cwd = fromSources ? path.resolve(path.dirname(entry), '../../../..') : path.dirname(entry);
  const command = lowestPriorityCommand(process.execPath, [...(fromSources ? ['--import', 'tsx'] : []), entry]);
  return { ...command, cwd };
}
