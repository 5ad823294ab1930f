import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BULK_IMPORT_TEMPLATE } from '../../src/contracts/admin';
import { users } from '../../src/server/db/schema';
import { memberCsvRow } from '../../src/server/modules/admin/members-export-service';
import { createMember, createTestApp, memberWithRole } from '../support/app';

const HEADER = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';

describe('bulk import', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const importCsv = (csvContent: unknown) =>
    app.inject({ method: 'POST', url: '/api/admin/bulk-import', headers: { cookie: admin.cookie }, payload: { csvContent } });
  const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  it('imports good rows, names each bad row and its problem, and keeps the bad ones out', async () => {
    const t = tag();
    const csv = [
      HEADER,
      `ada-${t}@example.test,Ada,Byrne,VIP,active,2099-12-31,10.00,patreon`,
      `sam-${t}@example.test,Sam,Kelly,dhr1,Cancelled,,3,BuyMeACoffee`,
      `gold-${t}@example.test,,,gold,active,,5,patreon`,
      `bad-email-${t},,,dhr2,active,,5,patreon`,
      `status-${t}@example.test,,,dhr2,paused,,5,patreon`,
      `source-${t}@example.test,,,dhr2,active,,5,paypal`,
      `date-${t}@example.test,,,dhr2,active,31/12/2026,5,patreon`,
      `amount-${t}@example.test,,,dhr2,active,,lots,patreon`,
      `ada-${t}@example.test,Ada,Again,VIP,active,,10,patreon`,
      `,No,Email,free,active,,0,patreon`,
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ imported: 2, updated: 0, skipped: 0 });
    expect(body.errors).toEqual([
      `Row 4 (record 3): invalid subscriptionTier 'gold' (use Free, DHR1, DHR2 or VIP)`,
      `Row 5 (record 4): invalid email 'bad-email-${t}'`,
      `Row 6 (record 5): invalid subscriptionStatus 'paused' (use active, cancelled, expired, cancelled_with_access or inactive)`,
      `Row 7 (record 6): invalid source 'paypal' (use admin, patreon or buymeacoffee)`,
      `Row 8 (record 7): invalid subscriptionExpiry '31/12/2026' (use YYYY-MM-DD)`,
      `Row 9 (record 8): invalid pledgeAmount 'lots' (euros per month, e.g. 5 or 10.00)`,
      `Row 10 (record 9): duplicate email ada-${t}@example.test (already on row 2)`,
      'Row 11 (record 10): email is missing',
    ]);
    expect(await userByEmail(`ada-${t}@example.test`)).toMatchObject({
      firstName: 'Ada',
      lastName: 'Byrne',
      subscriptionTier: 'vip',
      subscriptionStatus: 'active',
      subscriptionSource: 'patreon',
      pledgeAmountCents: 1000,
      // The end of that day in Dublin (winter: UTC).
      subscriptionExpiry: new Date('2099-12-31T23:59:59.999Z'),
      isAdmin: false,
    });
    expect(await userByEmail(`sam-${t}@example.test`)).toMatchObject({
      subscriptionTier: 'dhr1',
      subscriptionStatus: 'cancelled',
      subscriptionSource: 'buymeacoffee',
      pledgeAmountCents: 300,
      subscriptionExpiry: null,
    });
    expect(await userByEmail(`gold-${t}@example.test`)).toBeUndefined();
    expect(await userByEmail(`status-${t}@example.test`)).toBeUndefined();
  });

  it('names the spreadsheet row and the CSV record of a bad row, counting a cell with line breaks once', async () => {
    const t = tag();
    const csv = [HEADER, `multi-${t}@example.test,"Ada","Byrne\nof Cork",VIP,active,,10,patreon`, '', `bad-${t}@example.test,,,gold,active,,5,patreon`].join(
      '\n',
    );
    const body = (await importCsv(csv)).json();
    // Line 5 of the file; in a spreadsheet, row 4 (the empty line is a row, the two-line cell one); the 2nd record.
    expect(body.errors).toEqual([`Row 4 (record 2): invalid subscriptionTier 'gold' (use Free, DHR1, DHR2 or VIP)`]);
    expect(await userByEmail(`multi-${t}@example.test`)).toMatchObject({ lastName: 'Byrne\nof Cork' });
  });

  it('updates members already present and skips unchanged ones instead of duplicating', async () => {
    const t = tag();
    const same = await createMember(app, {
      email: `same-${t}@example.test`,
      firstName: 'Same',
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'patreon',
      pledgeAmountCents: 500,
    });
    const changed = await createMember(app, {
      email: `changed-${t}@example.test`,
      firstName: 'Keep',
      lastName: 'Me',
      subscriptionTier: 'dhr1',
      subscriptionStatus: 'active',
      subscriptionSource: 'patreon',
      pledgeAmountCents: 300,
    });
    const csv = [
      // Columns in another order and header names in another case.
      'Source,EMAIL,subscriptionTier,subscriptionStatus,pledgeAmount',
      `patreon,${same.user.email.toUpperCase()},DHR2,active,5`,
      `buymeacoffee,${changed.user.email},vip,active,"10,00"`,
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.json()).toMatchObject({ imported: 0, updated: 1, skipped: 1, errors: [] });
    expect(await userByEmail(changed.user.email)).toMatchObject({
      firstName: 'Keep',
      lastName: 'Me',
      subscriptionTier: 'vip',
      subscriptionSource: 'buymeacoffee',
      pledgeAmountCents: 1000,
    });
    expect(
      (
        await db
          .select()
          .from(users)
          .where(like(users.email, `%-${t}@example.test`))
      ).length,
    ).toBe(2);

    // The same file again changes nothing.
    expect((await importCsv(csv)).json()).toMatchObject({ imported: 0, updated: 0, skipped: 2, errors: [] });
  });

  it('reads CSV saved with semicolons (European spreadsheets)', async () => {
    const email = `semi-${tag()}@example.test`;
    const res = await importCsv(`email;subscriptionTier;subscriptionStatus;pledgeAmount;source\n${email};DHR2;active;5,00;patreon`);
    expect(res.json()).toMatchObject({ imported: 1, updated: 0, skipped: 0, errors: [] });
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'dhr2', pledgeAmountCents: 500 });
  });

  it('accepts the downloadable template as is', async () => {
    const res = await importCsv(BULK_IMPORT_TEMPLATE);
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([]);
    expect(res.json().imported + res.json().updated + res.json().skipped).toBe(2);
  });

  it('refuses empty content, missing columns and unreadable CSV with a clear 400', async () => {
    for (const empty of ['', '   \n  ', undefined]) {
      const res = await importCsv(empty);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please upload a CSV file or paste CSV data');
    }
    const headerOnly = await importCsv(`${HEADER}\n`);
    expect(headerOnly.json().message).toBe('Please upload a CSV file or paste CSV data');
    const missing = await importCsv('email,firstName\nx@example.test,X');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Missing required columns: subscriptionTier, subscriptionStatus');
    const broken = await importCsv(`${HEADER}\n"unclosed@example.test,A,B,vip,active,,10,patreon`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^The CSV could not be read/);
    expect((await importCsv(42)).statusCode).toBe(400);
  });

  it('previews exactly what the run then does, for generated files over the same members', async () => {
    // A small seeded generator: the same files on every run of the test.
    let seed = 33;
    const rand = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const pick = <T>(list: readonly T[]) => list[rand(list.length)] as T;
    const t = tag();
    const tiers = ['free', 'dhr1', 'dhr2', 'vip'] as const;
    const statuses = ['active', 'cancelled', 'expired', 'inactive'] as const;
    const sources = ['admin', 'patreon', 'buymeacoffee'] as const;
    const names = ['Ann', '=SUM(A1)', "'=Quoted", '-Dash', '+353', '@handle', 'Ó Súilleabháin', ''];
    const existing = [];
    for (let i = 0; i < 24; i++) {
      const tier = pick(tiers);
      existing.push(
        await createMember(app, {
          email: `gen${i}-${t}@example.test`,
          firstName: pick(names) || null,
          lastName: pick(names) || null,
          subscriptionTier: tier,
          subscriptionStatus: tier === 'free' ? 'inactive' : pick(['active', 'cancelled_with_access', 'expired'] as const),
          subscriptionSource: pick(sources),
          pledgeAmountCents: rand(3) * 500,
          subscriptionExpiry: rand(2) ? new Date(Date.UTC(2030, rand(12), 1 + rand(28), rand(24), 17)) : null,
        }),
      );
    }
    const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    for (let file = 0; file < 6; file++) {
      const lines = [HEADER];
      const before = await db
        .select()
        .from(users)
        .where(like(users.email, `%-${t}@example.test`))
        .orderBy(users.email);
      for (let r = 0; r < 40; r++) {
        const kind = rand(10);
        // A member as they are now, as the export writes them (extra columns are ignored).
        if (kind === 0) {
          lines.push(memberCsvRow(pick(before)).trimEnd());
          continue;
        }
        const email =
          kind < 4
            ? `gen${rand(24)}-${t}@example.test`
            : kind < 8
              ? `new${file}-${rand(30)}-${t}@example.test`
              : kind < 9
                ? `broken-${r}`
                : `gen${rand(24)}-${t}@EXAMPLE.test`;
        const expiry = rand(3) === 0 ? '' : `20${pick(['25', '30', '31'])}-0${1 + rand(9)}-1${rand(9)}`;
        lines.push(
          [
            email,
            pick(names),
            pick(names),
            rand(20) ? pick(tiers) : 'gold',
            pick(statuses),
            expiry,
            rand(20) ? pick(['', '5', '10.00']) : 'x',
            pick([...sources, '']),
          ]
            .map(cell)
            .join(','),
        );
      }
      const csv = lines.join('\n');
      const preview = await app.inject({
        method: 'POST',
        url: '/api/admin/bulk-import?dryRun=true',
        headers: { cookie: admin.cookie },
        payload: { csvContent: csv },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      // The preview wrote nothing.
      expect(
        await db
          .select()
          .from(users)
          .where(like(users.email, `%-${t}@example.test`))
          .orderBy(users.email),
      ).toEqual(before);
      const run = await app.inject({
        method: 'POST',
        url: '/api/admin/bulk-import?confirm=true',
        headers: { cookie: admin.cookie },
        payload: { csvContent: csv },
      });
      expect(run.statusCode, run.body).toBe(200);
      const comparable = (body: Record<string, unknown>) => {
        const { dryRun: _d, runId: _r, plan, ...rest } = body;
        const { planId: _p, ...planRest } = plan as Record<string, unknown>;
        return { ...rest, plan: planRest };
      };
      expect(comparable(preview.json()), `file ${file}`).toEqual(comparable(run.json()));
      expect(preview.json().updated).toBeGreaterThanOrEqual(0);
      expect(preview.json().skipped).toBeGreaterThanOrEqual(0);
      // The run did what it said: as many members changed as it counted.
      const after = await db
        .select()
        .from(users)
        .where(like(users.email, `%-${t}@example.test`))
        .orderBy(users.email);
      const beforeById = new Map(before.map((u) => [u.id, u]));
      const fields = (u: (typeof after)[number]) => [
        u.firstName,
        u.lastName,
        u.subscriptionTier,
        u.subscriptionStatus,
        u.subscriptionSource,
        u.pledgeAmountCents,
        u.subscriptionExpiry?.getTime(),
      ];
      const created = after.filter((u) => !beforeById.has(u.id));
      expect(created.length).toBe(run.json().imported);
      const renamed = after.filter((u) => {
        const b = beforeById.get(u.id);
        return b && (b.firstName !== u.firstName || b.lastName !== u.lastName);
      });
      expect(renamed.length).toBe(run.json().renamed);
      const changed = after.filter((u) => {
        const b = beforeById.get(u.id);
        return b && JSON.stringify(fields(b)) !== JSON.stringify(fields(u));
      });
      expect(changed.length).toBeLessThanOrEqual(run.json().updated);
      // The same file again: a run that changes nothing, previewed as such.
      const again = await app.inject({
        method: 'POST',
        url: '/api/admin/bulk-import?dryRun=true',
        headers: { cookie: admin.cookie },
        payload: { csvContent: csv },
      });
      expect(again.json()).toMatchObject({ imported: 0, updated: 0, renamed: 0 });
    }
  });

  it('reverts every field an import changed, names included', async () => {
    const t = tag();
    const renamedOnly = await createMember(app, {
      email: `names-${t}@example.test`,
      firstName: 'Niamh',
      lastName: 'Ryan',
      subscriptionTier: 'dhr1',
      subscriptionStatus: 'active',
      subscriptionSource: 'patreon',
      pledgeAmountCents: 300,
    });
    const both = await createMember(app, { email: `both-${t}@example.test`, firstName: '-Dash', lastName: null });
    const csv = [HEADER, `${renamedOnly.user.email},'=Niamh,Byrne,DHR1,active,,3,patreon`, `${both.user.email},Dara,Quinn,VIP,active,2031-05-01,10,admin`].join(
      '\n',
    );
    const preview = await app.inject({
      method: 'POST',
      url: '/api/admin/bulk-import?dryRun=true',
      headers: { cookie: admin.cookie },
      payload: { csvContent: csv },
    });
    expect(preview.json()).toMatchObject({ imported: 0, updated: 2, skipped: 0, renamed: 2 });
    expect(preview.json().nameChanges).toEqual([
      { email: renamedOnly.user.email, from: { firstName: 'Niamh', lastName: 'Ryan' }, to: { firstName: '=Niamh', lastName: 'Byrne' } },
      { email: both.user.email, from: { firstName: '-Dash', lastName: null }, to: { firstName: 'Dara', lastName: 'Quinn' } },
    ]);
    const run = await importCsv(csv);
    expect(run.json()).toMatchObject({ imported: 0, updated: 2, skipped: 0, renamed: 2 });
    expect(await userByEmail(renamedOnly.user.email)).toMatchObject({ firstName: '=Niamh', lastName: 'Byrne' });
    expect(await userByEmail(both.user.email)).toMatchObject({ firstName: 'Dara', lastName: 'Quinn', subscriptionTier: 'vip' });

    const revertPreview = await app.inject({
      method: 'POST',
      url: `/api/admin/sync-runs/${run.json().runId}/revert`,
      headers: { cookie: admin.cookie },
      payload: { dryRun: true },
    });
    expect(revertPreview.json()).toMatchObject({ dryRun: true, renamed: 2 });
    const revert = await app.inject({ method: 'POST', url: `/api/admin/sync-runs/${run.json().runId}/revert`, headers: { cookie: admin.cookie }, payload: {} });
    expect(revert.statusCode, revert.body).toBe(200);
    expect(revert.json()).toMatchObject({ reverted: 1, renamed: 2, skipped: [] });
    const fields = (u: Awaited<ReturnType<typeof userByEmail>>) => ({
      firstName: u?.firstName,
      lastName: u?.lastName,
      subscriptionTier: u?.subscriptionTier,
      subscriptionStatus: u?.subscriptionStatus,
      subscriptionSource: u?.subscriptionSource,
      subscriptionExpiry: u?.subscriptionExpiry,
      pledgeAmountCents: u?.pledgeAmountCents,
    });
    expect(fields(await userByEmail(renamedOnly.user.email))).toEqual(fields(renamedOnly.user));
    expect(fields(await userByEmail(both.user.email))).toEqual(fields(both.user));
    // The member's history shows the name change and its revert.
    const history = await app.inject({ method: 'GET', url: `/api/admin/users/${renamedOnly.user.id}/history`, headers: { cookie: admin.cookie } });
    expect(history.json().items.map((i: { reason: string }) => i.reason)).toEqual([
      `revert of run ${run.json().runId}: name put back`,
      'import row 2: name changed',
    ]);
  });

  it('imports 10,000 rows in one request, in one transaction', async () => {
    const t = tag();
    const tiers = ['Free', 'DHR1', 'DHR2', 'VIP'];
    const lines = [HEADER];
    for (let i = 0; i < 10_000; i++) {
      // Long names push the body past Fastify's default 2 MB limit, which this route raises.
      lines.push(
        `bulk${i}-${t}@example.test,${`First${i}`.padEnd(90, 'a')},${`Last${i}`.padEnd(90, 'o')},${tiers[i % 4]},active,2099-01-01,${(i % 4) * 3},${i % 2 ? 'patreon' : 'buymeacoffee'}`,
      );
    }
    const csv = lines.join('\n');
    expect(csv.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await importCsv(csv);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()).toMatchObject({ imported: 10_000, updated: 0, skipped: 0, errors: [] });
    const rows = await db
      .select()
      .from(users)
      .where(like(users.email, `%-${t}@example.test`));
    expect(rows).toHaveLength(10_000);

    // Half of them change: updated in batches; the rest skipped. Ending thousands of subscriptions
    // needs the admin's confirmation: refused (409, with the plan, nothing changed) without it.
    const changed = lines.map((l, i) => (i > 0 && i % 2 === 0 ? l.replace(',active,', ',expired,') : l)).join('\n');
    const refused = await importCsv(changed);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('confirmation_required');
    expect(refused.json().plan.counts.loseAccess).toBe(5_000);
    expect(refused.json().plan.planId).toMatch(/^[0-9a-f]{32}$/);
    expect((await db.select().from(users).where(eq(users.subscriptionStatus, 'expired'))).filter((u) => u.email.endsWith(`-${t}@example.test`))).toHaveLength(
      0,
    );
    const confirmed = await app.inject({
      method: 'POST',
      url: `/api/admin/bulk-import?confirm=true&planId=${refused.json().plan.planId}`,
      headers: { cookie: admin.cookie },
      payload: { csvContent: changed },
    });
    expect(confirmed.json()).toMatchObject({ imported: 0, updated: 5_000, skipped: 5_000, errors: [] });
    expect((await db.select().from(users).where(eq(users.subscriptionStatus, 'expired'))).filter((u) => u.email.endsWith(`-${t}@example.test`))).toHaveLength(
      5_000,
    );
    // Speed is measured by bench/admin-scale.ts; a busy CI machine only needs room here.
  }, 180_000);
});
