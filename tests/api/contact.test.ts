import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, type ContactMessage, type ContactMessageList } from '../../src/contracts/community';
import { contactMessages } from '../../src/server/db/schema';
import { createTestApp, memberWithRole, type TestMember } from '../support/app';
import { freshIp } from '../support/auth-client';
import { readOutbox, tempDataDir } from '../support/outbox';

const send = async (app: FastifyInstance, payload: object, who?: TestMember, ip = freshIp()) => {
  const res = await app.inject({ method: 'POST', url: '/api/contact', remoteAddress: ip, payload, headers: who ? { cookie: who.cookie } : {} });
  await app.mailer.idle();
  return res;
};

describe('contact form and inbox', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir, CONTACT_EMAIL: 'station@dhr.example' });
  const admin = await memberWithRole(app, 'admin');
  const vip = await memberWithRole(app, 'vip');
  const dhr1 = await memberWithRole(app, 'dhr1');
  const inbox = (who?: TestMember, status = 'open') =>
    app.inject({ method: 'GET', url: `/api/admin/contact-messages?status=${status}`, headers: who ? { cookie: who.cookie } : {} });

  it('refuses missing fields with the spec message and a bad email, storing nothing', async () => {
    for (const body of [
      { name: ' ', email: 'a@b.ie', message: 'Hi' },
      { name: 'A', email: '', message: 'Hi' },
      { name: 'A', email: 'a@b.ie', message: '   ' },
    ]) {
      const res = await send(app, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(CONTACT_MESSAGES.required);
    }
    expect((await send(app, { name: 'A', email: 'not-an-email', message: 'Hi' })).json().message).toBe(CONTACT_MESSAGES.invalidEmail);
    expect((await send(app, { name: 'A', email: `${'a'.repeat(250)}@b.test`, message: 'Hi' })).json().message).toBe(CONTACT_MESSAGES.invalidEmail);
    expect((await send(app, { name: 'A', email: 'a@b.ie', message: 'x'.repeat(5001) })).statusCode).toBe(400);
    expect(await app.database.db.select().from(contactMessages)).toEqual([]);
  });

  it('names each wrong field in the envelope, so the form can show the message by the field', async () => {
    const typo = await send(app, { name: 'Aoife', email: 'aoife@example', message: 'Hi' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toMatchObject({
      error: { code: 'contact_invalid', message: CONTACT_MESSAGES.invalidEmail },
      fields: { email: CONTACT_MESSAGES.invalidEmail },
    });
    expect(Object.keys(typo.json().fields)).toEqual(['email']);
    const empty = await send(app, { name: '', email: '', message: '' });
    expect(empty.json().message).toBe(CONTACT_MESSAGES.required);
    expect(empty.json().fields).toEqual({
      name: CONTACT_MESSAGES.nameRequired,
      email: CONTACT_MESSAGES.emailRequired,
      message: CONTACT_MESSAGES.messageRequired,
    });
    const twoWrong = await send(app, { name: '', email: 'nope', message: 'Hi' });
    expect(twoWrong.json().fields).toEqual({ name: CONTACT_MESSAGES.nameRequired, email: CONTACT_MESSAGES.invalidEmail });
    expect(await app.database.db.select().from(contactMessages)).toEqual([]);
  });

  it('stores a visitor message trimmed, mails it to CONTACT_EMAIL with reply-to, and keeps markup as text', async () => {
    const res = await send(app, { name: '  Aoife  ', email: ' aoife@example.ie ', subject: '', message: '<script>alert(1)</script> Love the Sunday sessions' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(CONTACT_MESSAGES.sent);
    const mail = readOutbox(dataDir).at(-1);
    expect(mail?.to).toContain('station@dhr.example');
    expect(mail?.subject).toBe('Contact: Message from the website');
    expect(mail?.raw).toMatch(/Reply-To: aoife@example.ie/i);
    // The HTML part carries the words escaped; the text part as typed.
    expect(mail?.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Love the Sunday sessions');
    const [row] = (await inbox(admin)).json<ContactMessageList>().messages;
    expect(row).toMatchObject({ name: 'Aoife', email: 'aoife@example.ie', subject: null, priority: false, fromMember: null });
  });

  it('marks VIP members priority (subject and inbox order), not DHR1', async () => {
    await send(app, { name: 'Dee', email: 'dee@example.ie', message: 'Stream question' }, dhr1);
    await send(app, { name: 'Vee', email: 'vee@example.ie', subject: 'Download help', message: 'My download failed' }, vip);
    expect(readOutbox(dataDir).at(-1)?.subject).toBe('[PRIORITY] Contact: Download help');
    const list = (await inbox(admin)).json<ContactMessageList>().messages;
    expect(list[0]).toMatchObject({ name: 'Vee', priority: true, fromMember: vip.user.username });
    expect(list.find((m) => m.name === 'Dee')).toMatchObject({ priority: false, fromMember: dhr1.user.username });
  });

  it('a filled honeypot is answered as sent but nothing is stored or mailed', async () => {
    const mails = readOutbox(dataDir).length;
    const rows = (await app.database.db.select().from(contactMessages)).length;
    const res = await send(app, { name: 'Bot', email: 'bot@spam.example', message: 'Cheap pills', website: 'http://spam.example' });
    expect(res.statusCode).toBe(201);
    expect(readOutbox(dataDir)).toHaveLength(mails);
    expect(await app.database.db.select().from(contactMessages)).toHaveLength(rows);
  });

  it('inbox: admins only; mark handled moves a message out of the open list, once', async () => {
    for (const who of [undefined, vip, dhr1]) expect((await inbox(who)).statusCode).toBe(who ? 403 : 401);
    const [first] = (await inbox(admin)).json<ContactMessageList>().messages;
    const url = `/api/admin/contact-messages/${first?.id}/handled`;
    expect((await app.inject({ method: 'PATCH', url, headers: { cookie: vip.cookie } })).statusCode).toBe(403);
    const done = await app.inject({ method: 'PATCH', url, headers: { cookie: admin.cookie } });
    expect(done.statusCode).toBe(200);
    expect(done.json<ContactMessage>().handledAt).toBeTruthy();
    // Once: a second press says it is handled already (409), changing nothing.
    expect((await app.inject({ method: 'PATCH', url, headers: { cookie: admin.cookie } })).statusCode).toBe(409);
    expect((await inbox(admin)).json<ContactMessageList>().messages.map((m) => m.id)).not.toContain(first?.id);
    expect((await inbox(admin, 'handled')).json<ContactMessageList>().messages.map((m) => m.id)).toEqual([first?.id]);
  });

  it('inbox: shows who handled a message and when, reopens it, and says how many there are in all', async () => {
    const [first] = (await inbox(admin)).json<ContactMessageList>().messages;
    const url = `/api/admin/contact-messages/${first?.id}/handled`;
    const done = (await app.inject({ method: 'PATCH', url, headers: { cookie: admin.cookie } })).json<ContactMessage>();
    expect(done).toMatchObject({ handledBy: admin.user.username });
    expect(done.handledAt).toBeTruthy();
    const handledList = (await inbox(admin, 'handled')).json<ContactMessageList>();
    expect(handledList.messages.find((m) => m.id === first?.id)).toMatchObject({ handledBy: admin.user.username });
    expect(handledList.total).toBe(handledList.messages.length);
    // Reopen: back in the open list, with no handler; a second reopen is a 409 that says so, changing nothing.
    expect((await app.inject({ method: 'DELETE', url, headers: { cookie: vip.cookie } })).statusCode).toBe(403);
    const reopened = await app.inject({ method: 'DELETE', url, headers: { cookie: admin.cookie } });
    expect(reopened.json<ContactMessage>()).toMatchObject({ handledAt: null, handledBy: null });
    const again = await app.inject({ method: 'DELETE', url, headers: { cookie: admin.cookie } });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(CONTACT_MESSAGES.notHandled);
    expect((await inbox(admin)).json<ContactMessageList>().messages.map((m) => m.id)).toContain(first?.id);
    const missing = await app.inject({
      method: 'DELETE',
      url: '/api/admin/contact-messages/00000000-0000-4000-8000-000000000000/handled',
      headers: { cookie: admin.cookie },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('inbox: a list cut at 500 says how many there are in all', async () => {
    const extra = 505 - (await inbox(admin, 'all')).json<ContactMessageList>().total;
    await app.database.db
      .insert(contactMessages)
      .values(Array.from({ length: extra }, (_, i) => ({ name: `N${i}`, email: `n${i}@example.ie`, message: 'hello' })));
    const all = (await inbox(admin, 'all')).json<ContactMessageList>();
    expect(all.messages).toHaveLength(500);
    expect(all.total).toBe(505);
  });

  it('is rate-limited per address', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await send(app, { name: 'R', email: 'r@example.ie', message: `n${i}` }, undefined, ip)).statusCode);
    expect(codes).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
