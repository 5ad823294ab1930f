import { TIERS, type Tier } from './tiers';

/**
 * The tier table: every tier's name, price, pledge band and benefits, typed once. Everything else
 * reads it: the access rules and permission flags (tier-policy.ts), the pledge bands the platforms
 * map from and the dashboard counts by, the pricing cards, upgrade screens, JSON-LD offers and the
 * messages that name a tier or its price. Free of zod so the web bundle imports it as it is.
 *
 * A tier's name or price written anywhere else in src is a test failure (tier-table.test.ts).
 */

/** The live channels a tier may hear at full quality. */
export type TierChannel = 'dhr1' | 'dhr2';

export interface TierRow {
  /** The id stored on a member and in the access policy. */
  id: Tier;
  /** The name every screen, message, export and import uses. */
  label: string;
  /** Monthly price in euro. */
  priceEur: number;
  /** The lowest monthly pledge, in euro cents, that buys the tier on Patreon or Buy Me a Coffee. */
  pledgeMinCents: number;
  /** Channels the tier may hear (the permission flags canAccessDHR1 and canAccessDHR2). */
  channels: readonly TierChannel[];
  /** The tier-only pages of the top tier, such as the track history (the permission flag canAccessVIP). */
  vipPages: boolean;
  /** No adverts on the home and forum pages. */
  adFree: boolean;
  /** May comment on news and the home page and post in the forum. */
  comments: boolean;
  /** Signed in to the chatroom automatically: reads and posts in the channel chats without an extra step. */
  chatSignIn: boolean;
  /** Priority community access: the supporter badge on chat messages, and no slow mode. */
  chatPriority: boolean;
  /** May play the mixes of the VIP library. */
  playsMixes: boolean;
  /** Mixes the member may download a day, counted from midnight Dublin time; 0 = no downloads. */
  mixDownloadsPerDay: number;
  /** Contact messages are marked priority and come first in the inbox. */
  prioritySupport: boolean;
  /** What the pricing cards, upgrade screens and JSON-LD offers list, in this order. */
  benefits: readonly string[];
}

const DHR1 = 'DHR1';
const DHR2 = 'DHR2';
const VIP_DOWNLOADS_PER_DAY = 2;

export const TIER_TABLE: Readonly<Record<Tier, TierRow>> = {
  free: {
    id: 'free',
    label: 'Free',
    priceEur: 0,
    pledgeMinCents: 0,
    channels: [],
    vipPages: false,
    adFree: false,
    comments: false,
    chatSignIn: false,
    chatPriority: false,
    playsMixes: false,
    mixDownloadsPerDay: 0,
    prioritySupport: false,
    benefits: [],
  },
  dhr1: {
    id: 'dhr1',
    label: DHR1,
    priceEur: 3,
    pledgeMinCents: 300,
    channels: ['dhr1'],
    vipPages: false,
    adFree: true,
    comments: true,
    chatSignIn: true,
    chatPriority: false,
    playsMixes: true,
    mixDownloadsPerDay: 0,
    prioritySupport: false,
    benefits: [
      'Premium channel at 320kbps',
      'Track identification',
      'Ad-free listening',
      'Play the VIP mix library',
      'Comments on news, forum and home',
      'Live chat beside the players',
      'Supporter badge on your profile',
    ],
  },
  dhr2: {
    id: 'dhr2',
    label: DHR2,
    priceEur: 5,
    pledgeMinCents: 500,
    channels: ['dhr1', 'dhr2'],
    vipPages: false,
    adFree: true,
    comments: true,
    chatSignIn: true,
    chatPriority: true,
    playsMixes: true,
    mixDownloadsPerDay: 0,
    prioritySupport: false,
    benefits: [`Everything in ${DHR1}`, `The exclusive ${DHR2} channel`, 'Enhanced streaming quality', 'Supporter badge in chat, no slow mode'],
  },
  vip: {
    id: 'vip',
    label: 'VIP',
    priceEur: 10,
    pledgeMinCents: 1000,
    channels: ['dhr1', 'dhr2'],
    vipPages: true,
    adFree: true,
    comments: true,
    chatSignIn: true,
    chatPriority: true,
    playsMixes: true,
    mixDownloadsPerDay: VIP_DOWNLOADS_PER_DAY,
    prioritySupport: true,
    benefits: [`Everything in ${DHR2}`, 'Exclusive mix library (1TB+)', `Mix downloads (${VIP_DOWNLOADS_PER_DAY} per day)`, 'Priority support'],
  },
};

/** The paid tiers, cheapest first. */
export const PAID_TIERS = TIERS.filter((t): t is Exclude<Tier, 'free'> => t !== 'free');

/** The lowest tier on the ladder whose row passes `has` (the top tier when none does). */
export function lowestTierWith(has: (row: TierRow) => boolean): Tier {
  return TIERS.find((t) => has(TIER_TABLE[t])) ?? 'vip';
}

/** The tiers whose row passes `has`, cheapest first. */
export function tiersWith(has: (row: TierRow) => boolean): Tier[] {
  return TIERS.filter((t) => has(TIER_TABLE[t]));
}

/** The tier's name: 'DHR1'. */
export function tierLabel(tier: Tier): string {
  return TIER_TABLE[tier].label;
}

/**
 * Tiers as a list in prose: tierList(['dhr1', 'dhr2', 'vip'], 'or') is 'DHR1, DHR2 or VIP'; with
 * `serialComma`, 'DHR1, DHR2, or VIP'. `name` writes each tier (its label unless told otherwise).
 */
export function tierList(tiers: readonly Tier[], word: 'and' | 'or', serialComma = false, name: (tier: Tier) => string = tierLabel): string {
  const labels = tiers.map(name);
  if (labels.length < 2) return labels.join('');
  return `${labels.slice(0, -1).join(', ')}${serialComma ? ',' : ''} ${word} ${labels.at(-1)}`;
}
