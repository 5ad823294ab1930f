import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import { escapeHtml } from './html';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go (the contact form: the sender). */
  replyTo?: string;
}

export interface Mailer {
  /** Sends (SMTP) or writes to the outbox; resolves once the message is handed over or on disk. */
  send(message: MailMessage): Promise<void>;
  /**
   * Builds and sends a message after the current request has answered, never delaying it: how long a
   * reply takes must not tell whether an email is known. `build` may return null (nothing
   * to send); failures are logged, not thrown.
   */
  sendLater(build: () => Promise<MailMessage | null>): void;
  /** Resolves once every message handed to sendLater is sent or has failed (tests, shutdown). */
  idle(): Promise<void>;
  /** Where .eml files go when no SMTP server is configured. */
  outboxDir: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise each message becomes an RFC 822 .eml file in
 * DATA_DIR/outbox so sign-in links and codes work offline.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>, log: FastifyBaseLogger): Mailer {
  const outboxDir = path.join(config.dataDir, 'outbox');
  const smtp: Transporter | undefined = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : undefined;
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  const pending = new Set<Promise<void>>();

  // Neither recipients nor subjects are logged, at any level: subjects may carry a member's words.
  async function send(message: MailMessage): Promise<void> {
    const mail = { from: config.MAIL_FROM, ...message };
    if (smtp) {
      await smtp.sendMail(mail);
      log.info('mail sent');
      return;
    }
    const info = await stream.sendMail(mail);
    await fs.mkdir(outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = path.join(outboxDir, name);
    await fs.writeFile(file, info.message as Buffer);
    log.info({ file }, 'mail written to outbox');
  }

  return {
    outboxDir,
    send,
    sendLater(build) {
      const job = new Promise<void>((resolve) => setImmediate(resolve))
        .then(build)
        .then((message) => (message ? send(message) : undefined))
        .catch((err: unknown) => log.error({ err }, 'queued mail failed'))
        .finally(() => pending.delete(job));
      pending.add(job);
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}

/** Decorates `app.mailer`. */
export const mailPlugin = fp(async (app: FastifyInstance) => {
  const mailer = createMailer(app.config, app.log);
  app.decorate('mailer', mailer);
  // Queued mail goes out before the database it reads from closes.
  app.addHook('onClose', async () => mailer.idle());
});

/**
 * A branded message with one call to action: `paragraphs` of plain text, then either a button link
 * or a big code. Returns both the text and the HTML version.
 */
export function composeMail(opts: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  code?: string;
  footer: string;
}): MailMessage {
  const textParts = [opts.greeting, '', ...opts.paragraphs.flatMap((p) => [p, ''])];
  if (opts.action) textParts.push(`${opts.action.label}: ${opts.action.url}`, '');
  if (opts.code) textParts.push(`Your code: ${opts.code}`, '');
  textParts.push(opts.footer, '', '-- Deep House Radio');

  const p = (s: string) => `<p style="margin:0 0 16px;color:#d4d2e8;font-size:15px;line-height:1.6">${escapeHtml(s)}</p>`;
  const action = opts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.action.url)}" style="display:inline-block;padding:12px 24px;border-radius:999px;background:#7c3aed;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(opts.action.label)}</a></p>
<p style="margin:0 0 16px;color:#8b87ab;font-size:13px;word-break:break-all">${escapeHtml(opts.action.url)}</p>`
    : '';
  const code = opts.code ? `<p style="margin:24px 0;font-size:32px;letter-spacing:8px;font-weight:700;color:#67e8f9">${escapeHtml(opts.code)}</p>` : '';
  const html = `<!doctype html><html><body style="margin:0;background:#05050b;padding:32px 16px;font-family:Inter,Segoe UI,Arial,sans-serif">
<div style="max-width:520px;margin:0 auto;background:#0e0d1d;border:1px solid #2a2650;border-radius:20px;padding:32px">
<p style="margin:0 0 24px;font-size:13px;letter-spacing:4px;color:#22d3ee;font-weight:700">DEEP HOUSE RADIO</p>
${p(opts.greeting)}${opts.paragraphs.map(p).join('')}${action}${code}
<p style="margin:24px 0 0;color:#6b6790;font-size:12px;line-height:1.5">${escapeHtml(opts.footer)}</p>
</div></body></html>`;
  return { to: opts.to, subject: opts.subject, text: textParts.join('\n'), html };
}
