import { describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from './advisory-locks';

describe('advisory lock keys', () => {
  it('gives every lock its own key, so one job never waits on another', () => {
    const keys = Object.values(ADVISORY_LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
    expect(ADVISORY_LOCKS.firstAdminSetup).not.toBe(ADVISORY_LOCKS.subscriptionSync);
  });
});
