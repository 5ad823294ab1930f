import { z } from 'zod';

/**
 * Reply schemas for what is not a JSON object, so that every route documents its replies
 * (plugins/api-document.ts) without a serializer touching them: Fastify sends strings, buffers and
 * streams as they are.
 */

/** Bytes or text the route sends as they are (typed `any`: a string, a Buffer or a stream). */
const rawBody = z.any().meta({ type: 'string', format: 'binary' });

/** A reply that is a page, a file or a stream, documented by its media type. */
export function mediaReply(mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema: rawBody } } };
}

/** 204 (or a redirect): nothing in the body. */
export const noContentReply = z.any().meta({ description: 'No content.' });

/**
 * A JSON text a route answers as it is (a public read built once and kept in memory), typed as the
 * reply its schema documents: Fastify sends a string with a JSON content type without serializing it.
 */
export function preSerializedJson<T>(json: string): T {
  return json as unknown as T;
}
