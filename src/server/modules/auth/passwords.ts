import { hash, verify } from '@node-rs/argon2';

/** OWASP ASVS 5.0 argon2id parameters (docs/decisions/0007-accounts-sign-in-and-rate-limits.md): 19 MiB, 2 passes, 1 lane. @node-rs/argon2 defaults to argon2id. */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// Verified against when the account is unknown or has no password, so both cost one argon2 run.
let dummyHash: Promise<string> | undefined;

/** True when `password` matches `stored`; spends the same work when there is nothing to match. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('dhr-no-such-account-placeholder');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash never signs anyone in.
    return false;
  }
}
