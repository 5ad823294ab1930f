import { z } from 'zod';
import { tierSchema } from './member-schemas';

/**
 * A channel as anyone may see it. It carries no playable premium URL: the premium mount is
 * reached only through GET /api/channels/{id}/stream (a short-lived token for members whose tier opens it).
 */
export const channelSchema = z.object({
  id: z.string(),
  name: z.string(),
  colour: z.string(),
  /** The premium mount's quality, e.g. '320kbps'. */
  bitrateLabel: z.string(),
  requiredTier: tierSchema,
  /** A public mount of the same programme that needs no account (DHR1 at 128 kbps), or null. */
  freeStreamUrl: z.string().nullable(),
  freeBitrateLabel: z.string().nullable(),
});
export type Channel = z.infer<typeof channelSchema>;
export const channelListSchema = z.array(channelSchema);

/** GET /api/channels/{id}/stream: the premium mount with a listener token that expires soon. */
export const streamTicketSchema = z.object({
  url: z.string(),
  /** ISO time after which Icecast refuses a new connection with this URL. */
  expiresAt: z.string(),
});
export type StreamTicket = z.infer<typeof streamTicketSchema>;

/** One of a member's premium-stream connections, as the admin's user view lists them. */
export const streamConnectionSchema = z.object({
  mount: z.string(),
  /** The listener's network (IPv4 /24, IPv6 /48), never the address. */
  network: z.string(),
  userAgent: z.string(),
  since: z.string(),
  /** Null while connected. */
  endedAt: z.string().nullable(),
});
export type StreamConnection = z.infer<typeof streamConnectionSchema>;

/** GET /api/admin/users/{id}/stream-connections: open connections, then the most recent ones. */
export const memberStreamConnectionsSchema = z.object({
  maxConcurrent: z.number().int(),
  current: z.array(streamConnectionSchema),
  recent: z.array(streamConnectionSchema),
});
export type MemberStreamConnections = z.infer<typeof memberStreamConnectionsSchema>;
