import type { AnalyticsSummary, Compared } from '../../../contracts/analytics';
import type { Db } from '../../db/client';
import { claimOneTimeRun } from '../../lib/periodic-job';
import { dublinDate } from '../../lib/dates';
import { composeMail, type Mailer, type MailMessage } from '../../lib/mail';
import { findAdminEmails } from '../members/members-repository';
import { monthDays, monthSummary } from './summary-service';
import { rollUpDay } from './rollups-service';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'November 2026' of '2026-11'. */
export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${MONTH_NAMES[m - 1] ?? ''} ${y}`;
}

/** The month before the Dublin day `now` falls in, YYYY-MM. */
export function previousMonth(now: Date): string {
  const [y, m] = dublinDate(now).split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return String(Math.round(v * f) / f);
};

/** '12.5 (+25% on October)', '3 (October: 0)'. */
function line(label: string, c: Compared, digits: number, before: string, unit = ''): string {
  const change = c.change === null ? `${before}: ${unit}${round(c.previous, digits)}` : `${c.change >= 0 ? '+' : ''}${round(c.change * 100, 1)}% on ${before}`;
  return `${label}: ${unit}${round(c.value, digits)} (${change})`;
}

/** The monthly summary as one mail to one admin, with a link to /analytics. */
export function monthlyMail(to: string, summary: AnalyticsSummary, publicUrl: string): MailMessage {
  const f = summary.figures;
  const before = MONTH_NAMES[Number(summary.previousFrom.slice(5, 7)) - 1] ?? 'the month before';
  const mixes = f.topMixes.length ? f.topMixes.map((m, i) => `${i + 1}. ${m.title}: ${m.plays} plays, ${m.downloads} downloads`).join('; ') : 'none played';
  return composeMail({
    to,
    subject: `DHR in ${monthName(summary.month)}: listeners, supporters and music`,
    greeting: `The station's numbers for ${monthName(summary.month)}, each against ${before}:`,
    paragraphs: [
      line('Listeners a day', f.listeners, 1, before),
      line('Listening hours', f.listeningHours, 1, before),
      line('Peak listeners at once', f.peak, 0, before),
      line('Members with paid access', f.membersWithAccess, 0, before),
      line('Monthly recurring revenue', f.mrrEuros, 2, before, '€'),
      line('New paying members', f.newPaying, 0, before),
      line('Members who stopped paying', f.stoppedPaying, 0, before),
      line('Free-to-paid conversions', f.conversions, 0, before),
      `Top mixes: ${mixes}.`,
    ],
    action: { label: 'Open the analytics', url: `${publicUrl.replace(/\/+$/, '')}/analytics` },
    footer: 'You receive this on the first day of each month as an admin of Deep House Radio.',
  });
}

/**
 * On the first Dublin day of a month, mails last month's summary to every admin, once per month
 * across instances and restarts (a one-time claim per month). Last month's final day is rolled up
 * first. Returns how many mails went out (0 on other days or once sent).
 */
export async function sendMonthlySummary(db: Db, mailer: Mailer, publicUrl: string, now: Date = new Date()): Promise<number> {
  if (!dublinDate(now).endsWith('-01')) return 0;
  const month = previousMonth(now);
  if (!(await claimOneTimeRun(db, `analytics-monthly-mail:${month}`))) return 0;
  await rollUpDay(db, monthDays(month).to, now);
  const summary = await monthSummary(db, month, now);
  const admins = await findAdminEmails(db);
  for (const to of admins) await mailer.send(monthlyMail(to, summary, publicUrl));
  return admins.length;
}
