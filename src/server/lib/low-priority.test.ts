import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { atLowestPriority } from './low-priority';

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
});
