import os from 'node:os';

/**
 * Puts a process (default: the calling thread, and the threads and children it starts later) at the
 * lowest CPU priority: encoders and dumps run beside the server and take only what listeners' requests
 * leave (docs/decisions/0034-background-work-off-the-request-path.md). Not permitted on some systems:
 * then the work runs at normal priority.
 */
export function atLowestPriority(pid = 0): void {
  try {
    os.setPriority(pid, os.constants.priority.PRIORITY_LOW);
  } catch {
    // Left at normal priority.
  }
}
