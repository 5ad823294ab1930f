import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { serializeErrorForLog } from './log-serializers';

describe('serializeErrorForLog', () => {
  it('keeps the query and the SQLSTATE, drops bound parameters, details and addresses', () => {
    const pgError = Object.assign(new Error('invalid input syntax for type uuid: "someone@example.test"'), {
      code: '22P02',
      detail: 'Key (email)=(someone@example.test) already exists.',
      constraint: 'users_email_unique',
    });
    const err = new DrizzleQueryError('insert into "users" ("email") values ($1)', ['someone@example.test', 'a\u0000b'], pgError);
    const logged = JSON.stringify(serializeErrorForLog(err));
    expect(logged).not.toContain('someone@example.test');
    expect(logged).not.toContain('params');
    expect(logged).toContain('insert into \\"users\\"');
    expect(logged).toContain('22P02');
    expect(logged).toContain('users_email_unique');
  });

  it('hides addresses in mail errors', () => {
    const logged = JSON.stringify(serializeErrorForLog(new Error('550 5.1.1 <victim@example.test>: Recipient address rejected')));
    expect(logged).not.toContain('victim@example.test');
  });
});
