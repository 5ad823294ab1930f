import { eq } from 'drizzle-orm';
import type { AuthUser } from '../../../contracts/auth';
import type { Db } from '../../db/client';
import { users, type NewUserRow, type UserRow } from '../../db/schema';
import { toMemberSummary } from '../members/member-summary';

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0] ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function insertUser(db: Db, values: NewUserRow): Promise<UserRow> {
  const rows = await db.insert(users).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('user insert returned nothing');
  return row;
}

export async function updateUser(db: Db, id: string, values: Partial<NewUserRow>): Promise<UserRow> {
  const rows = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  const row = rows[0];
  if (!row) throw new Error('user update returned nothing');
  return row;
}

export async function recordLogin(db: Db, id: string): Promise<void> {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, id));
}

/** A username from the email's local part when none is given (platform members, quick assign). */
export function usernameFromEmail(email: string): string {
  return (email.split('@')[0] ?? email).slice(0, 50) || 'member';
}

/** The member as the client sees it; never the password hash. */
export function toAuthUser(u: UserRow): AuthUser {
  return {
    ...toMemberSummary(u),
    hasPassword: u.passwordHash !== null,
  };
}
