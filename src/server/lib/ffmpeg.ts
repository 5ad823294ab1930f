import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { atLowestPriority, lowestPriorityCommand } from './low-priority';

/**
 * Runs ffmpeg as a child process with progress: `-progress pipe:1` writes `out_time_us=` lines to
 * stdout, read here against the input's duration. Input may come from a stream (stdin, `-i pipe:0`);
 * output goes to a file the caller names in `args`. Nothing is buffered beyond a line of progress
 * and the last 2 KB of ffmpeg's error output (its reason when it fails).
 */

/** The ffmpeg binary could not be started (not installed, or FFMPEG_PATH points nowhere). */
export class FfmpegMissingError extends Error {}

/** ffmpeg ran and failed: `message` is the end of its error output. */
export class FfmpegFailedError extends Error {}

export interface FfmpegJob {
  /** FFMPEG_PATH. */
  bin: string;
  /** Arguments after the progress options (which this adds first). */
  args: string[];
  /** The input's length in seconds, to turn out_time into a fraction; 0 when unknown. */
  durationS: number;
  /** Piped to ffmpeg's stdin (use `-i pipe:0` in args). */
  input?: NodeJS.ReadableStream;
  /** Called with 0..1 as ffmpeg reports progress. */
  onProgress?: (fraction: number) => void;
  /** Kills ffmpeg (SIGKILL) when aborted. */
  signal?: AbortSignal;
}

const STDERR_KEEP = 2048;

/** Parses one `-progress` line; the fraction done when it is an out_time line. */
export function progressFraction(line: string, durationS: number): number | undefined {
  const m = /^out_time_us=(\d+)$/.exec(line.trim());
  if (!m || durationS <= 0) return undefined;
  return Math.min(1, Number(m[1]) / 1e6 / durationS);
}

export function runFfmpeg(job: FfmpegJob): Promise<void> {
  return new Promise((resolve, reject) => {
    // Encoding is background work: at the lowest CPU priority it takes only what listeners' requests leave.
    const command = lowestPriorityCommand(job.bin, ['-hide_banner', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1', ...job.args]);
    const child = spawn(command.bin, command.args, {
      stdio: [job.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      signal: job.signal,
      killSignal: 'SIGKILL',
    });
    if (child.pid !== undefined) atLowestPriority(child.pid);
    let stderr = '';
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve();
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EACCES') finish(new FfmpegMissingError(`ffmpeg not found at ${job.bin}`));
      else finish(err);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    if (child.stdout) {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const fraction = progressFraction(line, job.durationS);
        if (fraction !== undefined) job.onProgress?.(fraction);
      });
    }
    if (job.input && child.stdin) {
      // ffmpeg may stop reading early (a bad input): the broken pipe is its error, not ours.
      child.stdin.on('error', () => undefined);
      job.input.on('error', (err: Error) => {
        child.kill('SIGKILL');
        finish(err);
      });
      job.input.pipe(child.stdin);
    }
    child.on('close', (code, signal) => {
      // Whatever ffmpeg did not read is not wanted (an S3 body would hold its connection open).
      (job.input as { destroy?: () => void } | undefined)?.destroy?.();
      if (code === 0) return finish();
      const reason = stderr.trim().split('\n').slice(-3).join(' ').trim();
      finish(new FfmpegFailedError(reason || (signal ? `ffmpeg stopped (${signal})` : `ffmpeg exited with code ${code}`)));
    });
  });
}
