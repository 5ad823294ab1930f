import { z } from 'zod';
import { ANALYTICS_MESSAGES } from './analytics-values';
import { textField } from './text-field';

export * from './analytics-values';

/** Analytics API payloads: the rollups' figures for a period and its previous one. */

/** A month, YYYY-MM. */
export const monthSchema = textField(7).regex(/^\d{4}-(0[1-9]|1[0-2])$/, ANALYTICS_MESSAGES.badMonth);
/** A Dublin day, YYYY-MM-DD. */
export const daySchema = textField(10).regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, ANALYTICS_MESSAGES.badRange);

export const summaryQuerySchema = z.object({ month: monthSchema.optional() });
export const rebuildBodySchema = z.object({ day: daySchema });
/** The music report's range (Dublin days, inclusive) and, optionally, one channel. */
export const musicReportQuerySchema = z.object({
  from: textField(10).regex(/^\d{4}-\d{2}-\d{2}$/, ANALYTICS_MESSAGES.badReportRange),
  to: textField(10).regex(/^\d{4}-\d{2}-\d{2}$/, ANALYTICS_MESSAGES.badReportRange),
  channel: textField(32)
    .regex(/^[a-z0-9-]{1,32}$/, 'Unknown channel')
    .optional(),
});

/** A figure for the period, the previous period's, and the change as a fraction (null when the previous was 0). */
export const comparedSchema = z.object({ value: z.number(), previous: z.number(), change: z.number().nullable() });
export type Compared = z.infer<typeof comparedSchema>;

export const topMixSchema = z.object({ mixId: z.string(), title: z.string(), plays: z.number().int(), downloads: z.number().int() });

export const periodFiguresSchema = z.object({
  /** Mean of the days' unique listeners (network and player), every channel together. */
  listeners: comparedSchema,
  /** Total listening hours. */
  listeningHours: comparedSchema,
  sessions: comparedSchema,
  /** The most listeners at once, and when (ISO; null without any). */
  peak: comparedSchema.extend({ at: z.string().nullable() }),
  /** Members whose subscription is active (the dashboard's 'active' bucket) at the period's end. */
  payingMembers: comparedSchema,
  /** Members with paid access at the period's end, cancelled members with paid time included (as the dashboard counts them). */
  membersWithAccess: comparedSchema,
  /** Monthly recurring revenue of active pledges at the period's end, euros. */
  mrrEuros: comparedSchema,
  newPaying: comparedSchema,
  stoppedPaying: comparedSchema,
  cameBack: comparedSchema,
  conversions: comparedSchema,
  topMixes: z.array(topMixSchema).max(10),
});
export type PeriodFigures = z.infer<typeof periodFiguresSchema>;

export const summarySchema = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  figures: periodFiguresSchema,
});
export type AnalyticsSummary = z.infer<typeof summarySchema>;

/** The page's range: Dublin days, inclusive. */
export const overviewQuerySchema = z.object({
  from: textField(10).regex(/^\d{4}-\d{2}-\d{2}$/, ANALYTICS_MESSAGES.badRange),
  to: textField(10).regex(/^\d{4}-\d{2}-\d{2}$/, ANALYTICS_MESSAGES.badRange),
});

const breakdownSchema = z.array(z.object({ value: z.string(), hours: z.number(), sessions: z.number().int() })).max(300);

/** Everything the analytics page draws for a range, with the previous range of the same length for comparison. */
export const overviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  figures: periodFiguresSchema,
  /** Mean concurrent listeners per channel: 15-minute buckets up to 31 days, one point a day beyond. */
  listeners: z.object({
    channels: z.array(z.string()).max(50),
    points: z.array(z.object({ at: z.string(), values: z.array(z.number()).max(50) })).max(40_000),
  }),
  days: z.array(z.object({ day: z.string(), hours: z.number(), uniques: z.number().int(), sessions: z.number().int(), peak: z.number().int() })).max(400),
  countries: breakdownSchema,
  players: breakdownSchema,
  /** Members with paid access at each day's end by effective tier (cancelled members with paid time included). */
  members: z.array(z.object({ day: z.string(), byTier: z.record(z.string(), z.number()) })).max(400),
  /** MRR in euros at each day's end by platform. */
  mrr: z.array(z.object({ day: z.string(), byPlatform: z.record(z.string(), z.number()) })).max(400),
  flows: z.array(z.object({ day: z.string(), newPaying: z.number(), stoppedPaying: z.number(), cameBack: z.number(), conversions: z.number() })).max(400),
});
export type AnalyticsOverview = z.infer<typeof overviewSchema>;
