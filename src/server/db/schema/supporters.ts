import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';
import type { Platform } from './platforms';

/** How a platform identity is keyed: Patreon's user id (Connect Patreon) or a payer email. */
export type PlatformLinkKind = 'user_id' | 'email';
/** Who made the link: the member by OAuth or an emailed code, or an admin from the reconciliation page. */
export type PlatformLinkVia = 'oauth' | 'claim' | 'admin';

/**
 * Supporters who pay under another identity than their DHR email (docs/decisions/0019-supporter-links.md):
 * a platform identity linked to one account. A link wins over an email match in sync and webhooks.
 * @owner src/server/modules/platforms/links-repository.ts
 */
export const platformLinks = pgTable(
  'platform_links',
  {
    platform: text('platform').$type<Platform>().notNull(),
    kind: text('kind').$type<PlatformLinkKind>().notNull(),
    /** Patreon user id, or a lower-cased payer email. */
    key: text('key').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    via: text('via').$type<PlatformLinkVia>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.kind, t.key] }), index('platform_links_user_idx').on(t.userId)],
);

export type PlatformLinkRow = typeof platformLinks.$inferSelect;
