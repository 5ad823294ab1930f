/**
 * Growth checks for code that must stay linear on hostile input. They compare the CPU time of the
 * same work on a small and a 4× larger input (best of three runs each), not wall time against a
 * fixed limit: on a shared machine another process stretches wall time, while a quadratic
 * algorithm multiplies its own CPU time by 16. Absolute speed belongs to `npm run bench`.
 */
async function bestOf3(work: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = process.cpuUsage();
    await work();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * The ratio of CPU time on `large` to `small` (inputs 4× apart); linear work gives about 4,
 * quadratic about 16. Times under `floorMs` count as the floor, so tiny inputs do not divide noise.
 */
export async function growthRatio(small: () => unknown, large: () => unknown, floorMs = 5): Promise<{ ratio: number; smallMs: number; largeMs: number }> {
  const smallMs = await bestOf3(small);
  const largeMs = await bestOf3(large);
  return { ratio: Math.max(largeMs, floorMs) / Math.max(smallMs, floorMs), smallMs, largeMs };
}
