import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { atLowestPriority, lowestPriorityCommand } from './low-priority';

/** Linux's SCHED_IDLE, as /proc/PID/stat gives a task's policy. */
const SCHED_IDLE = 5;
const hasChrt = spawnSync('chrt', ['--help'], { stdio: 'ignore' }).status === 0;

/** The scheduling policy of a task (/proc/PID/stat or /proc/PID/task/TID/stat), field 41 after the name in parentheses. */
function policyIn(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
}

describe('atLowestPriority', () => {
  it('puts a child process at the lowest CPU priority', async () => {
    const child = spawn('sleep', ['5']);
    try {
      expect(os.getPriority(child.pid)).toBe(os.getPriority());
      atLowestPriority(child.pid);
      expect(os.getPriority(child.pid)).toBe(os.constants.priority.PRIORITY_LOW);
    } finally {
      child.kill();
    }
  });

  it('leaves a process it may not change, or that has ended, as it was, without throwing', () => {
    expect(() => atLowestPriority(2 ** 22 + 7)).not.toThrow();
  });

  it.skipIf(!hasChrt)('puts a whole command-line process, every thread of it, in SCHED_IDLE', async () => {
    const script = "import('./src/server/lib/low-priority.ts').then((m) => { m.atLowestPriority(); console.log('ready'); setTimeout(() => {}, 10000); })";
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(import.meta.dirname, '../../..') });
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const tasks = fs.readdirSync(`/proc/${child.pid}/task`);
      expect(tasks.length).toBeGreaterThan(1);
      expect(tasks.map((tid) => policyIn(`/proc/${child.pid}/task/${tid}/stat`))).toEqual(tasks.map(() => SCHED_IDLE));
    } finally {
      child.kill();
    }
  });
});

describe('lowestPriorityCommand', () => {
  it.skipIf(!hasChrt)('starts a command in SCHED_IDLE, as the same process', async () => {
    const command = lowestPriorityCommand('sleep', ['5']);
    const child = spawn(command.bin, command.args);
    try {
      // chrt sets the policy, then becomes the command: the policy is on the pid the caller holds.
      await vi.waitFor(() => expect(fs.readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim()).toBe('sleep'));
      expect(policyIn(`/proc/${child.pid}/stat`)).toBe(SCHED_IDLE);
    } finally {
      child.kill();
    }
  });

  it('leaves a command that is not there to fail as itself', () => {
    expect(lowestPriorityCommand('dhr-no-such-command', ['-x'])).toEqual({ bin: 'dhr-no-such-command', args: ['-x'] });
  });
});
