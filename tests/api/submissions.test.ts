import { describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '../../src/contracts/submissions';
import { djSubmissions } from '../../src/server/db/schema';
import { client, freshIp } from '../support/auth-client';
import { createTestApp, memberWithRole } from '../support/app';
import { readOutbox, tempDataDir } from '../support/outbox';

const STATION = 'station@dhr.example.test';

const form = (over: Record<string, unknown> = {}) => ({
  artistName: 'Lena Vos',
  email: 'Lena@Example.test',
  mixTitle: 'Midnight Drift',
  genre: 'deep-house',
  duration: '62:00',
  description: 'Two hours of rolling basslines.',
  wetransferLink: 'https://we.tl/t-abc123',
  socialMedia: '@lenavos',
  ...over,
});

describe('DJ submissions', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir, CONTACT_EMAIL: STATION });
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const submit = (body: unknown) => app.inject({ method: 'POST', url: '/api/submissions', payload: body as object, remoteAddress: freshIp() });

  it('stores a submission and mails the station and a receipt to the DJ', async () => {
    const res = await submit(form());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: SUBMISSION_MESSAGES.received });
    await app.mailer.idle();
    const mails = readOutbox(dataDir);
    const station = mails.find((m) => m.to.includes(STATION));
    expect(station?.subject).toBe('DJ submission: Midnight Drift by Lena Vos');
    expect(station?.body).toContain('https://we.tl/t-abc123');
    const receipt = mails.find((m) => m.to.includes('lena@example.test'));
    // The DJ's address is unproven, so the receipt carries only the station's words and link.
    expect(receipt?.subject).toBe('We received your mix submission');
    for (const typed of ['Midnight Drift', 'Lena Vos', 'we.tl']) expect(receipt?.body).not.toContain(typed);
    expect(receipt?.body).toContain(app.config.PUBLIC_URL);
    const rows = await db.select().from(djSubmissions);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'lena@example.test', status: 'new', genre: 'deep-house' });
  });

  it('refuses a submission without a valid http(s) link, a missing field or an unknown genre, storing nothing', async () => {
    const before = (await db.select().from(djSubmissions)).length;
    for (const bad of [
      form({ wetransferLink: '' }),
      form({ wetransferLink: 'not a link' }),
      form({ wetransferLink: 'javascript:alert(1)' }),
      form({ wetransferLink: 'ftp://files.example.test/mix.wav' }),
      form({ artistName: '   ' }),
      form({ genre: 'techno' }),
      form({ description: undefined }),
      form({ email: 'nope' }),
    ]) {
      const res = await submit(bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    const linkless = await submit(form({ wetransferLink: 'not a link' }));
    expect(linkless.json().message).toContain(SUBMISSION_MESSAGES.invalidLink);
    expect((await db.select().from(djSubmissions)).length).toBe(before);
  });

  it('answers a bot that fills the honeypot like anyone, but stores and mails nothing', async () => {
    const before = (await db.select().from(djSubmissions)).length;
    const mailsBefore = readOutbox(dataDir).length;
    expect((await submit(form({ website: 'http://spam.example.test' }))).statusCode).toBe(201);
    await app.mailer.idle();
    expect((await db.select().from(djSubmissions)).length).toBe(before);
    expect(readOutbox(dataDir).length).toBe(mailsBefore);
  });

  it('limits submissions per address', async () => {
    const c = client(app);
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await c.post('/api/submissions', form({ email: `dj${i}@example.test` }))).statusCode);
    expect(codes.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(codes.at(-1)).toBe(429);
  });

  it('lets an admin review: statuses and a note; the DJ is mailed on accepted or declined only', async () => {
    const list = await app.inject({ url: '/api/admin/submissions', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    const first = (list.json() as { submissions: { id: string; email: string }[] }).submissions.find((s) => s.email === 'lena@example.test');
    expect(first).toBeDefined();
    const patch = (body: unknown) =>
      app.inject({ method: 'PATCH', url: `/api/admin/submissions/${first?.id}`, headers: { cookie: admin.cookie }, payload: body as object });
    const mailsToDj = () => readOutbox(dataDir).filter((m) => m.to.includes('lena@example.test')).length;

    const before = mailsToDj();
    expect((await patch({ status: 'listening' })).json()).toMatchObject({ status: 'listening' });
    await app.mailer.idle();
    expect(mailsToDj()).toBe(before);

    const accepted = await patch({ status: 'accepted', note: 'Airing on a Friday night.' });
    expect(accepted.json()).toMatchObject({ status: 'accepted', note: 'Airing on a Friday night.' });
    await app.mailer.idle();
    const mails = readOutbox(dataDir).filter((m) => m.to.includes('lena@example.test'));
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.subject).toBe('Your mix was accepted');
    expect(mails.at(-1)?.body).not.toContain('Midnight Drift');
    expect(mails.at(-1)?.body).toContain('Airing on a Friday night.');

    // The same status again is no new decision.
    await patch({ status: 'accepted' });
    await app.mailer.idle();
    expect(mailsToDj()).toBe(before + 1);

    await patch({ status: 'declined' });
    await app.mailer.idle();
    expect(
      readOutbox(dataDir)
        .filter((m) => m.to.includes('lena@example.test'))
        .at(-1)?.subject,
    ).toBe('About your mix submission');

    expect((await patch({ status: 'approved' })).statusCode).toBe(400);
    expect((await patch({})).statusCode).toBe(400);
    const filtered = await app.inject({ url: '/api/admin/submissions?status=declined', headers: { cookie: admin.cookie } });
    const declined = filtered.json() as { submissions: { status: string }[]; total: number };
    expect(declined.submissions.every((s) => s.status === 'declined')).toBe(true);
    expect(declined.total).toBe(declined.submissions.length);
  });

  it('keeps the queue to admins', async () => {
    const dj = await memberWithRole(app, 'vip');
    expect((await app.inject({ url: '/api/admin/submissions' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/admin/submissions', headers: { cookie: dj.cookie } })).statusCode).toBe(403);
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/admin/submissions/00000000-0000-4000-8000-000000000000',
      headers: { cookie: admin.cookie },
      payload: { status: 'accepted' },
    });
    expect(res.statusCode).toBe(404);
  });
});
