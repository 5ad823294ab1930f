/**
 * A real Icecast for tests (API and browser): `describe.skipIf(!hasIcecast)` then `await startTestRadio()`.
 * The logic lives in scripts/lib/icecast.ts, shared with `npm run radio`.
 */
import { afterAll } from 'vitest';
import { startIcecast, type FeedOptions, type IcecastServer, type StartIcecastOptions } from '../../scripts/lib/icecast';

export { freePort, hasIcecast, ICECAST_INSTALL_HINT, type FeedOptions, type IcecastServer } from '../../scripts/lib/icecast';

/**
 * Starts icecast2 with the given mounts on air (each fed by ffmpeg) and optional first titles.
 * Called in a describe body it is stopped after the file by the afterAll registered here; vitest ignores
 * afterAll registered from inside beforeAll, so there call `radio.stop()` in your own afterAll
 * (a watchdog still ends icecast2 when the test process goes away). Point DHR at it with `radioEnv(server)`.
 */
export async function startTestRadio(
  mounts: string[] = ['dhr1', 'dhr2'],
  titles: Record<string, string> = {},
  feed: FeedOptions = {},
  options: StartIcecastOptions = {},
): Promise<IcecastServer> {
  const server = await startIcecast(options);
  afterAll(async () => {
    await server.stop();
  });
  await Promise.all(mounts.map((m) => server.startFeed(m, feed)));
  for (const [mount, song] of Object.entries(titles)) await server.setTitle(mount, song);
  return server;
}

/** The env lines that point DHR's channels at the local Icecast (an IcecastServer, or just its port before it starts). */
export function radioEnv(server: IcecastServer | number): Record<string, string> {
  const url = (mount: string) => (typeof server === 'number' ? `http://127.0.0.1:${server}/${mount}` : server.streamUrl(mount));
  return { DHR1_STREAM_URL: url('dhr1'), DHR2_STREAM_URL: url('dhr2'), DHR1_FREE_STREAM_URL: url('dhr1-free') };
}
