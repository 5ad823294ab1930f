import { Readable } from 'node:stream';
import { BULK_IMPORT_COLUMNS, MEMBERS_EXPORT_EXTRA_COLUMNS } from '../../../contracts/admin';
import { tierLabel } from '../../../contracts/tier-table';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { dublinDate } from '../../lib/dates';
import { memberKeysetPage, type MemberCursor, type MemberFilters } from '../members/members-repository';

/** Members read per query while streaming the export. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * One CSV cell: a text a spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) gets a leading single quote; a cell with a quote, comma or line break is quoted
 * with its quotes doubled (RFC 4180).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

export const MEMBERS_EXPORT_HEADER = [...BULK_IMPORT_COLUMNS, ...MEMBERS_EXPORT_EXTRA_COLUMNS];

/** A member as an export row: the bulk import's columns (its formats: tier label, YYYY-MM-DD in Dublin, euros), then the rest. */
export function memberCsvRow(u: UserRow): string {
  return csvLine([
    u.email,
    u.firstName ?? '',
    u.lastName ?? '',
    tierLabel(u.subscriptionTier),
    u.subscriptionStatus,
    u.subscriptionExpiry ? dublinDate(u.subscriptionExpiry) : '',
    (u.pledgeAmountCents / 100).toFixed(2),
    u.subscriptionSource,
    u.username,
    String(u.isAdmin),
    u.createdAt.toISOString(),
    u.lastLoginAt?.toISOString() ?? '',
  ]);
}

/** Excel reads a CSV as UTF-8 only when it starts with this mark. */
const UTF8_BOM = '\uFEFF';

/** The export as a stream: the header (after the byte-order mark, when asked), then one keyset page of members at a time, written as it is read. */
export function membersCsvStream(db: Db, filters: MemberFilters, bom = true): Readable {
  async function* lines() {
    yield `${bom ? UTF8_BOM : ''}${csvLine(MEMBERS_EXPORT_HEADER)}`;
    let cursor: MemberCursor | null = null;
    do {
      const page = await memberKeysetPage(db, filters, cursor, EXPORT_PAGE_SIZE);
      yield page.rows.map(memberCsvRow).join('');
      cursor = page.next;
    } while (cursor);
  }
  return Readable.from(lines());
}
