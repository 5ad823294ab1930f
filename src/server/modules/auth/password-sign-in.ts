import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES, type AuthUser } from '../../../contracts/auth';
import type { Db } from '../../db/client';
import { forbidden, unauthorized } from '../../lib/errors';
import { verifyPassword } from './passwords';
import { enforceRateLimit, forgiveSuccess, RATE_RULES } from '../../lib/rate-limit';
import { toAuthUser } from '../members/member-views';
import { findMemberByEmail, recordLogin } from '../members/members-repository';

/**
 * Email + password sign-in, shared by members and admins: failures rate limited per IP and email, the same
 * hashing work for unknown emails, a fresh session on success.
 */
export async function passwordSignIn(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  credentials: { email: string; password: string },
  opts: { requireAdmin?: boolean } = {},
): Promise<{ message: string; user: AuthUser }> {
  const { email, password } = credentials;
  const rule = opts.requireAdmin ? RATE_RULES.adminLogin : RATE_RULES.login;
  await enforceRateLimit(db, req, rule, email);
  const user = await findMemberByEmail(db, email);
  // verifyPassword does the same work for unknown emails and accounts without a password.
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials');
  if (opts.requireAdmin && !user.isAdmin) throw forbidden('Admin privileges required', 'admin_required');
  await forgiveSuccess(db, req, rule, email);
  await reply.signIn(user.id, { isAdmin: user.isAdmin });
  await recordLogin(db, user.id);
  return { message: 'Signed in', user: toAuthUser(user) };
}
