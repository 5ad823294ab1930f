import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh DATA_DIR for one test file, so its outbox/ holds only that file's mail. */
export function tempDataDir(prefix = 'dhr-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  /** The whole message with quoted-printable undone, for finding links and codes. */
  body: string;
  raw: string;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  // Folded header lines continue with whitespace.
  const m = new RegExp(`^${name}:\\s*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return (m?.[1] ?? '').replace(/\r?\n[ \t]+/g, ' ').trim();
}

/** Every .eml in DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const raw = fs.readFileSync(file, 'utf8');
      return { file, raw, to: header(raw, 'To'), subject: header(raw, 'Subject'), body: decodeQuotedPrintable(raw) };
    });
}

/** The newest mail to `email`; throws when there is none. */
export function lastMailTo(dataDir: string, email: string): OutboxMail {
  const mails = readOutbox(dataDir).filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail to ${email} in ${dataDir}/outbox`);
  return last;
}

/** The first URL in the mail whose path starts with `pathPrefix` (e.g. '/simple-auth/link'). */
export function linkIn(mail: OutboxMail, pathPrefix: string): string {
  const re = new RegExp(`https?://[^\\s"'<>]+${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`);
  const m = re.exec(mail.body);
  if (!m) throw new Error(`no ${pathPrefix} link in mail "${mail.subject}"`);
  return m[0].replace(/&amp;/g, '&');
}

/** The one-time token a mailed link carries in its `#token=` fragment ('' when none). */
export function tokenIn(url: string): string {
  return new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? '';
}

/** The 6-digit code in a set-password mail. */
export function codeIn(mail: OutboxMail): string {
  const m = /Your code: (\d{6})/.exec(mail.body);
  if (!m?.[1]) throw new Error(`no code in mail "${mail.subject}"`);
  return m[1];
}
