import { z } from 'zod';

/** Every error reply: {"error": {"code", "message"}, "message"} (docs/conventions.md). */
export const errorEnvelopeSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  message: z.string(),
});
