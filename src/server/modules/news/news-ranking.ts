import { DAY_MS, HOUR_MS } from '../../../contracts/time';

/**
 * The prioritized news order (GET /api/articles/prioritized, the home ticker), documented in
 * docs/decisions/0017-news-ingestion-and-forum.md:
 *
 *   score = priority + 10 · 2^(−age in hours / 24) + 4 · ln(1 + comments in the last 7 days)
 *
 * `priority` is the source's (0–10, set by an admin; the seeded station news carries its own), the
 * recency term is worth 10 for an item published now and halves every day, and comment activity
 * counts with diminishing returns so one busy thread cannot pin an item for ever. Ties go to the newer item.
 */
export const RANKING = {
  recencyWeight: 10,
  halfLifeHours: 24,
  commentWeight: 4,
  commentWindowMs: 7 * DAY_MS,
} as const;

export interface Rankable {
  id: string;
  pubDate: Date;
  priority: number;
}

export function rankScore(item: Rankable, recentComments: number, now: number): number {
  const ageHours = Math.max(0, now - item.pubDate.getTime()) / HOUR_MS;
  const recency = RANKING.recencyWeight * 2 ** (-ageHours / RANKING.halfLifeHours);
  return item.priority + recency + RANKING.commentWeight * Math.log1p(Math.max(0, recentComments));
}

/** Orders items by score, highest first. */
export function rankItems<T extends Rankable>(items: T[], comments: ReadonlyMap<string, number>, now: number): T[] {
  return items
    .map((item) => ({ item, score: rankScore(item, comments.get(item.id) ?? 0, now) }))
    .sort((a, b) => b.score - a.score || b.item.pubDate.getTime() - a.item.pubDate.getTime())
    .map((s) => s.item);
}
