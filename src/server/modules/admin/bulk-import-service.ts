import { parse, type Options as CsvOptions } from 'csv-parse';
import {
  BULK_IMPORT_COLUMNS,
  BULK_IMPORT_EMPTY,
  BULK_IMPORT_MAX_ROWS,
  BULK_IMPORT_SOURCES,
  BULK_IMPORT_STATUSES,
  BULK_PLAN_SAMPLES,
  type BulkImportResult,
} from '../../../contracts/admin';
import { tierList } from '../../../contracts/tier-table';
import { parseTier, TIERS, type SubscriptionSource, type SubscriptionStatus, type Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import type { MemberNamesSnapshot, UserRow } from '../../db/schema';
import { NO_GRANT, sameGrant, toAccessSnapshot, toGrantSnapshot, type Grant } from '../../../contracts/grants';
import { applyChunk, decideBulk, DryRunRollback, planInSteps, type GrantChange, type PlannedMember } from '../members/entitlement-service';
import { writeInChunks } from '../platforms/bulk-run-chunks';
import { finishSyncRun, startSyncRun } from '../platforms/platforms-repository';
import { changeLogLines } from '../platforms/reconcile-service';
import { badRequest } from '../../lib/errors';
import { turnTaker } from '../../lib/event-loop';
import { runInBackground } from '../../db/lanes';
import { usernameFromEmail } from '../members/member-views';
import {
  findMembersByEmails,
  insertMembersInBulk,
  renameMembersInBulk,
  unsavedMember,
  type MemberNames,
  type NewMemberRow,
} from '../members/members-repository';
import { dublinDate, parseExpiryDate } from '../../lib/dates';
import { recordNameChanges } from '../members/grants-repository';
import { isEmailAddress, normaliseEmail } from '../../../contracts/email';

/** One valid CSV row, ready to write. */
interface ImportRow {
  row: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  tier: Tier;
  status: SubscriptionStatus;
  expiry: Date | null;
  pledgeAmountCents: number;
  source: SubscriptionSource;
}

/** `source` may be left out or empty: the station manages those members itself (admin). */
const REQUIRED = ['email', 'subscriptionTier', 'subscriptionStatus'] as const;
const MAX_NAME = 100;

/** Euros per month as written in a sheet: "10", "10.50", "10,50", "€10"; empty = 0. */
export function parseEuros(value: string): number | undefined {
  const v = value.replace(/€|eur/gi, '').trim().replace(',', '.');
  if (v === '') return 0;
  if (!/^\d+(\.\d{1,2})?$/.test(v)) return undefined;
  const n = Number(v);
  return n <= 100_000 ? Math.round(n * 100) : undefined;
}

interface Parsed {
  rows: ImportRow[];
  errors: string[];
}

type CsvRecord = { record: Record<string, string>; info: { records: number; empty_lines: number } };

/** A 10,000-row file is about 1 MB: read in steps of this many characters, and checked this many records at a time. */
const CSV_STEP_CHARS = 8 * 1024;

/**
 * csv-parse's streaming parser fed a step at a time, with a turn for listeners' requests between
 * steps: a whole file parsed at once holds the event loop for a tenth of a second
 * (docs/decisions/0034-background-work-off-the-request-path.md).
 */
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

async function parseInSteps(csv: string, options: CsvOptions): Promise<CsvRecord[]> {
  const parser = parse(options);
  const records: CsvRecord[] = [];
  let failure: Error | undefined;
  // Records are taken as each step is written: left to the 'readable' event, the parser's small object
  // buffer fills, later steps queue inside the stream, and all of them are parsed at once in one turn.
  const drain = () => {
    for (let r = parser.read() as CsvRecord | null; r !== null; r = parser.read() as CsvRecord | null) records.push(r);
  };
  parser.on('readable', drain);
  parser.on('error', (err: Error) => (failure ??= err));
  const ended = new Promise<void>((resolve) => parser.on('end', resolve).on('error', () => resolve()));
  const takeTurn = turnTaker();
  for (let at = 0; at < csv.length && !failure;) {
    let end = Math.min(csv.length, at + CSV_STEP_CHARS);
    // Never between the two halves of a character outside the BMP (an emoji in a name).
    if (end < csv.length && isHighSurrogate(csv.charCodeAt(end - 1))) end -= 1;
    parser.write(csv.slice(at, end));
    drain();
    at = end;
    await takeTurn();
  }
  if (!failure) parser.end();
  await ended;
  if (failure) throw failure;
  return records;
}

/**
 * Reads the CSV (BULK_IMPORT_COLUMNS, header row first, any column order, header names in any case).
 * Errors name the spreadsheet row (header = row 1; a cell with line breaks stays in its row, an empty
 * line is a row) and the CSV record number (data records, counted once however many lines they span),
 * so an operator finds the line in Excel and in a text editor alike. Throws 400 for an unreadable
 * file or missing required columns; bad rows become errors and are left out.
 */
export async function parseImportCsv(csv: string): Promise<Parsed> {
  if (!csv.trim()) throw badRequest(BULK_IMPORT_EMPTY, 'empty_import');
  let records: CsvRecord[];
  let header: string[] = [];
  try {
    records = await parseInSteps(csv, {
      bom: true,
      delimiter: delimiterOf(csv),
      columns: (h: string[]) => {
        header = h.map((c) => canonicalColumn(c));
        return header;
      },
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
      max_record_size: 64 * 1024,
    });
  } catch (err) {
    throw badRequest(`The CSV could not be read: ${(err as Error).message}`, 'invalid_csv');
  }
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) {
    throw badRequest(`Missing required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, 'missing_columns');
  }
  if (records.length === 0) throw badRequest(BULK_IMPORT_EMPTY, 'empty_import');
  if (records.length > BULK_IMPORT_MAX_ROWS) {
    throw badRequest(`Too many rows (${records.length}); import at most ${BULK_IMPORT_MAX_ROWS} at a time`, 'too_many_rows');
  }

  const rows: ImportRow[] = [];
  const errors: string[] = [];
  const firstRowOf = new Map<string, number>();
  const takeTurn = turnTaker();
  for (const { record, info } of records) {
    await takeTurn();
    // The header is row 1; each record and each empty line before it one row more.
    const rowNo = info.records + 1 + info.empty_lines;
    const problems: string[] = [];
    const get = (k: string) => unescapeFormula(record[k] ?? '').trim();

    const email = normaliseEmail(get('email'));
    if (!email) problems.push('email is missing');
    else if (!isEmailAddress(email)) problems.push(`invalid email '${clip(email)}'`);

    const tierText = get('subscriptionTier');
    const tier = parseTier(tierText);
    if (!tier) problems.push(`invalid subscriptionTier '${clip(tierText)}' (use ${tierList(TIERS, 'or')})`);

    const statusText = get('subscriptionStatus').toLowerCase();
    const status = (BULK_IMPORT_STATUSES as readonly string[]).includes(statusText) ? (statusText as SubscriptionStatus) : undefined;
    if (!status) problems.push(`invalid subscriptionStatus '${clip(statusText)}' (use active, cancelled, expired, cancelled_with_access or inactive)`);

    const sourceText = get('source').toLowerCase() || 'admin';
    const source = (BULK_IMPORT_SOURCES as readonly string[]).includes(sourceText) ? (sourceText as SubscriptionSource) : undefined;
    if (!source) problems.push(`invalid source '${clip(sourceText)}' (use admin, patreon or buymeacoffee)`);

    const expiryText = get('subscriptionExpiry');
    const expiry = expiryText ? parseExpiryDate(expiryText) : null;
    if (expiry === undefined) problems.push(`invalid subscriptionExpiry '${clip(expiryText)}' (use YYYY-MM-DD)`);

    const amountText = get('pledgeAmount');
    const cents = parseEuros(amountText);
    if (cents === undefined) problems.push(`invalid pledgeAmount '${clip(amountText)}' (euros per month, e.g. 5 or 10.00)`);

    const firstName = get('firstName');
    const lastName = get('lastName');
    if (firstName.length > MAX_NAME || lastName.length > MAX_NAME) problems.push(`names must be at most ${MAX_NAME} characters`);

    if (email && !problems.length) {
      const first = firstRowOf.get(email);
      if (first !== undefined) problems.push(`duplicate email ${email} (already on row ${first})`);
    }
    if (problems.length || !tier || !status || !source || expiry === undefined || cents === undefined) {
      errors.push(`Row ${rowNo} (record ${info.records}): ${problems.join('; ')}`);
      continue;
    }
    firstRowOf.set(email, rowNo);
    rows.push({ row: rowNo, email, firstName: firstName || null, lastName: lastName || null, tier, status, expiry, pledgeAmountCents: cents, source });
  }
  return { rows, errors };
}

/**
 * A cell DHR's export wrote with a leading quote so that a spreadsheet shows it as text
 * (members-export-service `csvCell`: '=…, '+…, '-…, '@…) reads back as the text it was.
 */
export function unescapeFormula(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** Spreadsheets set to European locales save CSV with ';' (or tabs): read the header line to tell. */
function delimiterOf(csv: string): string {
  const firstLine =
    csv
      .slice(0, 4096)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.includes(',')) return ',';
  if (firstLine.includes(';')) return ';';
  if (firstLine.includes('\t')) return '\t';
  return ',';
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** Header cell → canonical column name ('Email', 'subscription_tier', 'SubscriptionTier' → spec names). */
function canonicalColumn(h: string): string {
  const key = h
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');
  const found = BULK_IMPORT_COLUMNS.find((c) => c.toLowerCase() === key);
  if (found) return found;
  if (key === 'subscriptionsource') return 'source';
  return h.trim();
}

export interface ImportOptions {
  dryRun?: boolean;
  confirm?: boolean;
  /** The plan the admin previewed (confirm counts only with it; a plan that now takes more is refused). */
  planId?: string | undefined;
  /** The admin who imports. */
  startedBy?: string | null;
}

type Rename = MemberNames & { before: MemberNamesSnapshot; row: number };

/**
 * The members an import creates (emails not stored) and renames (names in the sheet that differ),
 * given the stored members by email. A whole sheet's plan is 10,000 rows: it takes turns (ADR 0034).
 */
async function membersToWrite(rows: readonly ImportRow[], stored: ReadonlyMap<string, UserRow>): Promise<{ inserts: NewMemberRow[]; renames: Rename[] }> {
  const inserts: NewMemberRow[] = [];
  const renames: Rename[] = [];
  const takeTurn = turnTaker();
  for (const r of rows) {
    await takeTurn();
    const u = stored.get(r.email);
    if (!u) {
      inserts.push({ email: r.email, username: usernameFromEmail(r.email), firstName: r.firstName, lastName: r.lastName });
      continue;
    }
    // Names left empty in the sheet keep what is stored.
    const firstName = r.firstName ?? u.firstName;
    const lastName = r.lastName ?? u.lastName;
    if (firstName !== u.firstName || lastName !== u.lastName) {
      renames.push({ id: u.id, firstName, lastName, before: { firstName: u.firstName, lastName: u.lastName }, row: r.row });
    }
  }
  return { inserts, renames };
}

/** Each row's grant change, for the members the rows name (by email → id). */
async function rowChanges(rows: readonly ImportRow[], idOf: ReadonlyMap<string, string>): Promise<GrantChange[]> {
  const changes: GrantChange[] = [];
  const takeTurn = turnTaker();
  for (const r of rows) {
    await takeTurn();
    const userId = idOf.get(r.email);
    if (userId) changes.push({ userId, source: r.source, next: (held: Grant | null) => rowGrant(r, held), reason: `import row ${r.row}` });
  }
  return changes;
}

/**
 * The import's plan, read outside any transaction and writing nothing: the members it would create
 * are planned as new members without grants (not stored), so a preview counts them without creating
 * them and gives the same plan, planId and samples as the run.
 */
async function planImport(db: Db, parsed: Parsed, result: BulkImportResult, now: Date) {
  const existing = new Map(
    (
      await findMembersByEmails(
        db,
        parsed.rows.map((r) => r.email),
      )
    ).map((u) => [u.email, u]),
  );
  const { inserts, renames } = await membersToWrite(parsed.rows, existing);
  const takeTurn = turnTaker();
  const unsaved: UserRow[] = [];
  for (const m of inserts) {
    await takeTurn();
    unsaved.push(unsavedMember(m, now));
  }
  const idOf = new Map([...existing.values(), ...unsaved].map((u) => [u.email, u.id]));
  const plannedOf = new Map((await planInSteps(db, await rowChanges(parsed.rows, idOf), now, unsaved)).map((p) => [p.member.id, p]));
  // In the sheet's order, so the preview's samples are the run's whatever order the database reads members in.
  const planned: PlannedMember[] = [];
  for (const r of parsed.rows) {
    await takeTurn();
    const p = plannedOf.get(idOf.get(r.email) ?? '');
    if (p) planned.push(p);
  }
  const createdIds = new Set(unsaved.map((c) => c.id));
  // Counted here, before the guard, so that a preview and the run it previews say the same.
  const touched = new Set([...planned.filter((p) => p.grantsChange || p.effectiveChanges).map((p) => p.member.id), ...renames.map((r) => r.id)]);
  result.imported = unsaved.length;
  result.updated = [...touched].filter((id) => !createdIds.has(id)).length;
  result.skipped = parsed.rows.length - result.imported - result.updated;
  const emailOf = new Map([...idOf].map(([email, id]) => [id, email]));
  result.renamed = renames.length;
  result.nameChanges = renames.slice(0, BULK_PLAN_SAMPLES).map((r) => ({
    email: emailOf.get(r.id) ?? '',
    from: r.before,
    to: { firstName: r.firstName, lastName: r.lastName },
  }));
  return { planned, createdIds };
}

/**
 * Applies the valid rows as a bulk run (docs/decisions/0023-member-grants-and-bulk-runs.md): new
 * emails become members, each row sets the grant of its source (admin, patreon or buymeacoffee),
 * and every member's subscription follows at once. The plan is made and guarded first, outside any
 * transaction; a dry run answers it and writes nothing; an import that would end many members'
 * subscriptions needs `confirm` (409 with the plan otherwise). Then the members are written in short
 * transactions (applyImport). EmailTakenError when another request created one of the emails in
 * the very moment a chunk wrote it.
 */
export function importRows(db: Db, parsed: Parsed, options: ImportOptions = {}): Promise<BulkImportResult> {
  // A bulk run is background work: listeners' statements go first (db/lanes.ts).
  return runInBackground(() => importInBackground(db, parsed, options));
}

async function importInBackground(db: Db, parsed: Parsed, options: ImportOptions): Promise<BulkImportResult> {
  const result: BulkImportResult = { imported: 0, updated: 0, skipped: 0, errors: parsed.errors, dryRun: options.dryRun === true, runId: null };
  if (!parsed.rows.length) return result;
  const now = new Date();
  try {
    const { planned, createdIds } = await planImport(db, parsed, result, now);
    const decision = await decideBulk(
      db,
      planned,
      { dryRun: options.dryRun, confirm: options.confirm, planId: options.planId, created: createdIds.size, createdIds },
      now,
    );
    result.plan = decision.plan;
    result.runId = await applyImport(db, parsed.rows, decision.apply, options.startedBy ?? null, now);
  } catch (err) {
    if (!(err instanceof DryRunRollback)) throw err;
    result.plan = err.plan;
  }
  return result;
}

/**
 * Writes a decided import BULK_CHUNK_MEMBERS members at a time, each chunk in its own transaction:
 * it reads its members again (one created meanwhile is updated, not inserted twice), creates the new
 * ones, puts the sheet's names, re-plans and applies their grants and writes their history lines
 * under the run. An import that stops part-way stays recorded as interrupted; importing the file
 * again applies the rest (rows already applied change nothing). Returns the run's id.
 */
async function applyImport(db: Db, rows: readonly ImportRow[], apply: readonly PlannedMember[], startedBy: string | null, now: Date): Promise<number> {
  const rowOf = new Map(rows.map((r) => [r.email, r]));
  const runId = await startSyncRun(db, 'import', now, startedBy, 'applying');
  const applied: PlannedMember[] = [];
  const createdIds = new Set<string>();
  const updated = await writeInChunks(db, runId, apply, async (tx, chunk) => {
    const chunkRows = chunk.flatMap((p) => rowOf.get(p.member.email) ?? []);
    const stored = new Map(
      (
        await findMembersByEmails(
          tx,
          chunkRows.map((r) => r.email),
        )
      ).map((u) => [u.email, u]),
    );
    const { inserts, renames } = await membersToWrite(chunkRows, stored);
    const created = await insertMembersInBulk(tx, inserts);
    await renameMembersInBulk(tx, renames);
    const idOf = new Map([...stored.values()].map((u) => [u.email, u.id]));
    for (const c of created) {
      idOf.set(c.email, c.id);
      createdIds.add(c.id);
    }
    const approved = chunk.flatMap((p) => {
      const id = idOf.get(p.member.email);
      return id ? [{ ...p, member: { ...p.member, id } }] : [];
    });
    const done = await applyChunk(tx, approved, await rowChanges(chunkRows, idOf), { cause: 'import', runId }, now);
    applied.push(...done.applied);
    await recordNameChanges(tx, runId, nameLines(renames, done.applied, runId), now);
    return done.updated;
  });
  await finishSyncRun(db, runId, {
    state: 'done',
    ok: true,
    updated,
    details: changeLogLines(applied, (p) => (createdIds.has(p.member.id) ? 'created by the import' : null)),
  });
  return runId;
}

/** History lines for the names an import changed, of members whose rows it applied. */
function nameLines(renames: readonly Rename[], applied: readonly PlannedMember[], runId: number) {
  const plannedOf = new Map(applied.map((p) => [p.member.id, p]));
  return renames.flatMap((r) => {
    const p = plannedOf.get(r.id);
    if (!p) return [];
    const access = toAccessSnapshot(p.after);
    const grants = p.grantsAfter.map(toGrantSnapshot);
    return [
      {
        userId: r.id,
        cause: 'import' as const,
        causeRef: null,
        runId,
        before: access,
        after: access,
        grantsBefore: grants,
        grantsAfter: grants,
        reason: `import row ${r.row}: name changed`,
        namesBefore: r.before,
        namesAfter: { firstName: r.firstName, lastName: r.lastName },
      },
    ];
  });
}

/**
 * The grant an import row gives, given the one its source holds now. A row that says what is held
 * already changes nothing: an expiry on the same Dublin day as the held one keeps the held instant
 * (the export writes days, not instants), and "Free, inactive" for a member without a grant of that
 * source stores no grant. So a file DHR exported imports back as a run that changes nothing.
 */
function rowGrant(r: ImportRow, held: Grant | null): Grant | null {
  const grant: Grant = { source: r.source, tier: r.tier, status: r.status, expiry: r.expiry, pledgeAmountCents: r.pledgeAmountCents };
  if (!held && sameGrant(grant, { ...NO_GRANT, source: r.source })) return null;
  if (held?.expiry && grant.expiry && dublinDate(held.expiry) === dublinDate(grant.expiry)) return { ...grant, expiry: held.expiry };
  return grant;
}
