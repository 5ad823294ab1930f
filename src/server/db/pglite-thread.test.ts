import { describe, expect, it } from 'vitest';
import { pgliteStartParams } from './client';
import { PgliteThread } from './pglite-thread';

describe('PgliteThread', () => {
  it('runs statements and transactions on its own thread', { timeout: 60_000 }, async () => {
    const t = await PgliteThread.start(undefined, pgliteStartParams);
    try {
      expect((await t.query('select 1 as n')).rows).toEqual([{ n: 1 }]);
      await t.exec('create table t (id int primary key)');
      await t.transaction(async (tx) => {
        await tx.query('insert into t values ($1)', [1]);
      });
      await expect(
        t.transaction(async (tx) => {
          await tx.query('insert into t values ($1)', [2]);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect((await t.query('select id from t order by id')).rows).toEqual([{ id: 1 }]);
      await expect(t.query('insert into t values (1)')).rejects.toMatchObject({ code: '23505' });
    } finally {
      await t.close();
    }
  });
});
