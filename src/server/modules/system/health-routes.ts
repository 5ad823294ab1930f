import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../plugins/access';
import { sendError } from '../../plugins/errors';
import { sendAnswer, type MemoryAnswer } from '../../plugins/memory-answers';

const HEALTHY = JSON.stringify({ status: 'ok' });
const HEALTHY_ANSWER: MemoryAnswer = { body: HEALTHY, cacheControl: 'no-store' };

/** A database answer is trusted for this long, so probes under load do not each queue a query. */
const PING_TTL_MS = 1000;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  let lastOk = 0;
  let inFlight: Promise<void> | undefined;
  async function databaseAnswers(): Promise<void> {
    if (Date.now() - lastOk < PING_TTL_MS) return;
    inFlight ??= app.database.ping().finally(() => {
      inFlight = undefined;
    });
    await inFlight;
    lastOk = Date.now();
  }

  app.get(
    '/api/health',
    // A 15-byte constant never reaches the compression threshold: no negotiation per probe.
    {
      config: {
        access: access.public,
        // Within the TTL the answer is a constant, sent before routing (plugins/memory-answers.ts).
        fromMemory: (_params, query) => (query === '' && Date.now() - lastOk < PING_TTL_MS ? HEALTHY_ANSWER : undefined),
      },
      compress: false,
      schema: { summary: 'Whether the instance and its database answer', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async (req, reply) => {
      try {
        // Within the TTL nothing is awaited: a probe under load costs no extra promise.
        if (Date.now() - lastOk >= PING_TTL_MS) await databaseAnswers();
      } catch (err) {
        req.log.warn({ err }, 'health check: database did not answer');
        return sendError(reply, 503, 'database_unavailable', 'The database is not answering');
      }
      // Probes call this constantly: the body is a constant, sent without per-request serialisation.
      return sendAnswer<{ status: 'ok' }>(req, reply, HEALTHY_ANSWER);
    },
  );
};
