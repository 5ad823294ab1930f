import { Readable } from 'node:stream';
import type { Config } from '../../config';
import type { Db } from '../client';
import type { MediaStorage } from '../../lib/storage/media-storage';
import { channels, newsItems, shopProducts, vipMixes } from '../schema';
import { demoProductRow } from '../../../contracts/shop-catalogue';
import { demoMixes, demoNews, demoProducts, SHOP_STORE_URL } from './demo-data';
import { DEMO_AUDIO_SAMPLE_RATE, DEMO_AUDIO_SECONDS, demoLoopWav, demoVoice } from './demo-audio';
import { DAY_MS } from '../../../contracts/time';
import { claimOneTimeRun } from '../../lib/periodic-job';

/** Channel rows follow the configured stream URLs on every start; the rest is inserted once. */
export async function seedChannels(db: Db, config: Config): Promise<void> {
  const rows = [
    {
      id: 'dhr1',
      name: 'DHR1 Premium',
      colour: '#22d3ee',
      streamUrl: config.DHR1_STREAM_URL,
      statusUrl: config.DHR1_STATUS_URL ?? null,
      bitrateLabel: '320kbps',
      requiredTier: 'dhr1',
      freeStreamUrl: config.DHR1_FREE_STREAM_URL,
      freeBitrateLabel: '128kbps',
      sortOrder: 1,
    },
    {
      id: 'dhr2',
      name: 'DHR2 Exclusive',
      colour: '#a855f7',
      streamUrl: config.DHR2_STREAM_URL,
      statusUrl: config.DHR2_STATUS_URL ?? null,
      bitrateLabel: '320kbps',
      requiredTier: 'dhr2',
      freeStreamUrl: null,
      freeBitrateLabel: null,
      sortOrder: 2,
    },
  ];
  for (const row of rows) {
    await db
      .insert(channels)
      .values(row)
      .onConflictDoUpdate({ target: channels.id, set: { streamUrl: row.streamUrl, statusUrl: row.statusUrl, freeStreamUrl: row.freeStreamUrl } });
  }
}

/**
 * The demo catalogue goes into a database once in its life: the first start decides (with
 * SEED_DEMO, default true), and what an admin later deletes stays deleted. A database that already
 * holds a catalogue (made before this rule, or restored) counts as seeded. The claim and the rows
 * commit together, so of several instances starting at once exactly one seeds.
 */
export async function seedDemoOnce(db: Db, wanted: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await claimOneTimeRun(tx, 'demoSeed'))) return false;
    if (!wanted || (await holdsCatalogue(tx))) return false;
    await seedDemo(tx);
    return true;
  });
}

async function holdsCatalogue(db: Db): Promise<boolean> {
  const [mix] = await db.select({ id: vipMixes.id }).from(vipMixes).limit(1);
  const [product] = await db.select({ id: shopProducts.id }).from(shopProducts).limit(1);
  const [item] = await db.select({ id: newsItems.id }).from(newsItems).limit(1);
  return Boolean(mix ?? product ?? item);
}

/** Idempotent demo catalogue: products, VIP mixes, news. Existing rows are left as the operator edited them. */
export async function seedDemo(db: Db): Promise<void> {
  await db
    .insert(shopProducts)
    .values(demoProducts.map((p) => demoProductRow(p, SHOP_STORE_URL)))
    .onConflictDoNothing();
  await db
    .insert(vipMixes)
    .values(
      demoMixes.map((m) => ({
        ...m,
        artworkUrl: `/images/mixes/${m.id}.svg`,
        duration: DEMO_AUDIO_SECONDS,
        fileSize: DEMO_AUDIO_BYTES,
        s3Url: demoMixKey(m.id),
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(newsItems)
    .values(demoNews.map(({ daysAgo, ...n }) => ({ ...n, imageUrl: `/images/news/${n.id}.svg`, pubDate: new Date(Date.now() - daysAgo * DAY_MS) })))
    .onConflictDoNothing();
}

/** Where a demo mix's audio lives in media storage. */
export function demoMixKey(mixId: string): string {
  return `mixes/${mixId}.wav`;
}

const DEMO_AUDIO_BYTES = 44 + DEMO_AUDIO_SECONDS * DEMO_AUDIO_SAMPLE_RATE * 2;

/**
 * Writes the demo mixes' audio (demo-audio.ts) to media storage where a demo mix still links to it
 * and the file is missing, so Play works on a fresh install. Files already there are not rewritten.
 */
export async function seedDemoAudio(db: Db, storage: MediaStorage): Promise<void> {
  const rows = await db.select({ id: vipMixes.id, s3Url: vipMixes.s3Url }).from(vipMixes);
  for (const [n, mix] of demoMixes.entries()) {
    const key = demoMixKey(mix.id);
    if (!rows.some((r) => r.id === mix.id && r.s3Url === key)) continue;
    if (await storage.stat(key)) continue;
    const wav = demoLoopWav(demoVoice(n));
    await storage.put(key, Readable.from([wav]), { contentType: 'audio/wav', maxBytes: wav.length });
  }
}
