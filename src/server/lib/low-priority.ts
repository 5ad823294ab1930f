import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where `bin` would be run from: itself when it names a path, else the first executable on PATH. */
function executable(bin: string): string | undefined {
  const candidates = bin.includes(path.sep)
    ? [bin]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, bin));
  return candidates.find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** util-linux's chrt (Linux), where the system has it: it starts a command, or moves a process, into SCHED_IDLE. */
const CHRT = executable('chrt');

/**
 * The command that runs `bin args` at the lowest CPU priority there is: under SCHED_IDLE, where the
 * kernel gives it only a CPU nothing else wants and a waking request's thread takes the CPU from it at
 * once (a niced process may finish its slice first). Without chrt (or the command), the command as
 * given: the caller still calls atLowestPriority(child.pid), which nices it. docs/decisions/0038-idle-class-and-paced-flushes.md.
 */
export function lowestPriorityCommand(bin: string, args: readonly string[]): { bin: string; args: string[] } {
  // A command that is not there is left to fail as itself (ENOENT), not as chrt's complaint.
  return CHRT && executable(bin) ? { bin: CHRT, args: ['--idle', '0', bin, ...args] } : { bin, args: [...args] };
}

/**
 * Puts a process (default: this one, with the threads and children it starts later) at the lowest CPU
 * priority: niced, and for this process also SCHED_IDLE with all its threads where chrt exists (a
 * command line's few milliseconds; the server starts its children with lowestPriorityCommand instead).
 * Encoders and dumps run beside the server and take only what listeners' requests leave
 * (docs/decisions/0034-background-work-off-the-request-path.md). Not permitted on some systems: then
 * the work runs at normal priority.
 */
export function atLowestPriority(pid = 0): void {
  try {
    os.setPriority(pid, os.constants.priority.PRIORITY_LOW);
  } catch {
    // Left at normal priority.
  }
  if (pid === 0 && CHRT) spawnSync(CHRT, ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
}
