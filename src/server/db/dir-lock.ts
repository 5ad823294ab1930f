import fs from 'node:fs';

export interface DirLock {
  release(): void;
}

export class DatabaseLockedError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A pid file beside the PGlite directory. A second process is refused with a clear message;
 * a lock left by a process that died is taken over.
 */
export function acquireDirLock(lockPath: string, guardedDir: string): DirLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
        throw new DatabaseLockedError(
          `The embedded database in ${guardedDir} is already open in process ${pid}. ` +
            'PGlite allows one process per data directory: stop the other DHR instance, use another DATA_DIR, ' +
            'or set DATABASE_URL to a PostgreSQL server to run several instances.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not lock ${guardedDir}`);
}
