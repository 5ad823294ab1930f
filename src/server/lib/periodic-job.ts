import type { FastifyInstance } from 'fastify';

/**
 * Runs `job` every `everyMs` on this instance, from the moment the server is ready until it closes,
 * when background jobs are on (they are off in tests that drive time themselves). A failure is logged
 * and the job simply runs again next time; the timer never keeps the process alive.
 */
export function runPeriodically(app: FastifyInstance, name: string, everyMs: number, job: () => Promise<unknown>): void {
  if (!app.config.backgroundJobs) return;
  let timer: NodeJS.Timeout | undefined;
  const run = () => job().catch((err: unknown) => app.log.warn({ err }, `${name} failed; will retry`));
  app.addHook('onReady', async () => {
    timer = setInterval(() => void run(), everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
