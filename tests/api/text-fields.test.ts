import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app';
import { schemaStrings } from '../support/schema-strings';

/**
 * Every string of every request schema of every registered route goes through the
 * shared text field (src/contracts/text-field.ts). The routes come from the app's own table, so a
 * route added tomorrow is checked without touching this test.
 */
describe('the one text rule', async () => {
  const app = await createTestApp();

  it('covers every string in every body, query, params and multipart schema', () => {
    const bare: string[] = [];
    let strings = 0;
    for (const r of app.routePolicies) {
      for (const [part, schema] of Object.entries(r.schema)) {
        for (const s of schemaStrings(schema)) {
          strings += 1;
          if (!s.ruled) bare.push(`${r.method} ${r.url} ${part}: ${s.path}`);
        }
      }
    }
    expect(strings).toBeGreaterThan(50);
    expect(bare).toEqual([]);
  });

  it('answers a NUL byte with a 400 in the spec words, not a 500', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/submissions', payload: { artistName: 'a\u0000b' } });
    expect(res.statusCode).toBe(400);
  });
});
