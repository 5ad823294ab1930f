import type { FastifyBaseLogger } from 'fastify';
import { hashToken, randomToken, safeEqual } from '../../lib/tokens';

/**
 * The one-time secret `POST /api/admin/setup` needs, so a scanner that finds a fresh install cannot
 * make itself admin. ADMIN_SETUP_TOKEN when set; otherwise one generated at start while no
 * admin exists, printed once in the log (warn) and shown nowhere else. Each process holds its own.
 */
export interface SetupTokenGate {
  /** Constant-time check of a presented token. */
  matches(presented: string): boolean;
  /** The generated token is spent once an admin exists; an ADMIN_SETUP_TOKEN stays (setup is closed anyway). */
  spend(): void;
}

export function createSetupTokenGate(opts: { envToken: string | undefined; adminExists: boolean; log: FastifyBaseLogger }): SetupTokenGate {
  let token: string | null = opts.envToken ?? null;
  const generated = !opts.envToken && !opts.adminExists;
  if (generated) {
    token = randomToken();
    opts.log.warn(`No admin exists yet. Create the first one at /admin-setup with this one-time setup token: ${token}`);
  }
  return {
    // Both sides hashed first, so the comparison takes the same time whatever the lengths.
    matches: (presented) => token !== null && safeEqual(hashToken(presented), hashToken(token)),
    spend() {
      if (generated) token = null;
    },
  };
}
