import { readFileSync } from 'node:fs';
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { vipMixes } from '../../src/server/db/schema';
import { insertMix } from '../../src/server/modules/mixes/mixes-repository';
import { createTestApp } from '../support/app';

/** A mix's link is a storage key only; migration 0011 clears the outside URLs of old rows. */
describe('migration 0011: mix links are storage keys only', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const migration = readFileSync(new URL('../../src/server/db/migrations/0011_security_round_2.sql', import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .find((statement) => statement.includes('"vip_mixes"')) as string;

  it('clears outside URLs and keeps storage keys', async () => {
    const base = { title: 't', artist: 'a', genre: 'deep house', duration: 1, fileSize: 1 };
    const rows = {
      'mig-outside': 'https://evil.example/login.mp3',
      'mig-traversal': 'mixes/../../etc/passwd.mp3',
      'mig-key': 'mixes/mig-key.mp3',
    } as const;
    for (const [id, s3Url] of Object.entries(rows)) await insertMix(db, { id, ...base, s3Url });
    await db.execute(sql.raw(migration));
    const after = await db
      .select({ id: vipMixes.id, s3Url: vipMixes.s3Url })
      .from(vipMixes)
      .where(inArray(vipMixes.id, Object.keys(rows)));
    expect(Object.fromEntries(after.map((r) => [r.id, r.s3Url]))).toEqual({ 'mig-outside': null, 'mig-traversal': null, 'mig-key': 'mixes/mig-key.mp3' });
  });
});
