/**
 * `npm run radio`: a local Icecast with DHR's three streams, fed by ffmpeg with a gentle
 * deep-house-style loop (kick, off-beat hat, a slow minor-seventh pad), titles changing every minute:
 * /dhr1-free (the DHR1 programme at 128 kbps, public), /dhr1 and /dhr2 (320 kbps, premium: Icecast asks
 * DHR about every listener through URL listener authentication).
 * Options: --port N (default 8000, which DHR's defaults already point at), --host ADDR (default 127.0.0.1),
 * --interval SECONDS (title changes; default 60), --dhr-url URL (where DHR runs; default http://127.0.0.1:3000).
 * STREAM_AUTH_KEY in the environment keys Icecast's calls to DHR; one is generated (and printed) when unset.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { hasIcecast, ICECAST_INSTALL_HINT, startIcecast, type FeedOptions, type IcecastServer } from './lib/icecast';
import { SECOND_MS } from '../src/contracts/time';

/** Real deep-house records, so the monitor's search links lead somewhere sensible. */
const PLAYLISTS: Record<string, string[]> = {
  dhr1: [
    'Kerri Chandler - Rain',
    'Mr. Fingers - Can You Feel It',
    'Moodymann - Shades Of Jae',
    'Frankie Knuckles - Your Love',
    'Joe Smooth - Promised Land',
    'St Germain - Rose Rouge',
    'Julio Bashmore - Au Seve',
  ],
  dhr2: [
    'Ron Trent - Altered States',
    'Dennis Ferrer - Hey Hey',
    'Masters At Work - To Be In Love',
    'Black Coffee - Superman',
    'Jimpster - Porchlight And Rocking Chairs',
    'Maya Jane Coles - What They Say',
    'Kerri Chandler - Bar A Thym',
  ],
};

/** A four-on-the-floor loop as one ffmpeg aevalsrc expression: pitched kick, off-beat hat, pad with a slow swell. */
function loop(bpm: number, chordHz: number[]): string {
  const beat = (60 / bpm).toFixed(4);
  const kick = `0.55*sin(2*PI*(45+90*exp(-25*mod(t,${beat})))*mod(t,${beat}))*exp(-6*mod(t,${beat}))`;
  const hat = `0.05*(random(0)*2-1)*exp(-45*mod(t+${beat}/2,${beat}))`;
  const pad = chordHz.map((hz, i) => `${(0.05 - i * 0.006).toFixed(3)}*sin(2*PI*${hz}*t)`).join('+');
  return `aevalsrc=exprs='${kick}+${hat}+(${pad})*(0.65+0.35*sin(2*PI*0.125*t))':s=44100`;
}

/** The public mount of the DHR1 programme. */
const FREE_MOUNT = 'dhr1-free';
/** Mounts Icecast opens only after asking DHR. */
const PREMIUM_MOUNTS = ['dhr1', 'dhr2'];

const FEEDS: Record<string, FeedOptions & { source: string }> = {
  // A minor 7 at 122 bpm, encoded once at 320 kbps (premium) and once at 128 kbps (free); D minor 9 at 120 bpm.
  dhr1: {
    source: loop(122, [220, 261.63, 329.63, 392]),
    name: 'DHR1 Premium (local)',
    bitrateKbps: 320,
    alsoAt: [{ mount: FREE_MOUNT, bitrateKbps: 128, name: 'DHR Free Stream (local)' }],
  },
  dhr2: { source: loop(120, [146.83, 174.61, 220, 261.63, 329.63]), name: 'DHR2 Exclusive (local)', bitrateKbps: 320 },
};
/** Title changes go to every mount of a programme. */
const TITLE_MOUNTS: Record<string, string[]> = { dhr1: ['dhr1', FREE_MOUNT], dhr2: ['dhr2'] };

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8000' },
      host: { type: 'string', default: '127.0.0.1' },
      interval: { type: 'string', default: '60' },
      'dhr-url': { type: 'string', default: 'http://127.0.0.1:3000' },
    },
  });
  if (!hasIcecast) {
    console.error(`npm run radio needs icecast2 and ffmpeg. Install them with: ${ICECAST_INSTALL_HINT}`);
    process.exit(1);
  }
  const port = Number(values.port);
  const intervalS = Number(values.interval);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port must be a port number');
  if (!(intervalS >= 5)) throw new Error('--interval must be at least 5 seconds');
  let dhrUrl: URL;
  try {
    dhrUrl = new URL(values['dhr-url']);
  } catch {
    throw new Error('--dhr-url must be a URL, e.g. http://127.0.0.1:3000');
  }
  const givenKey = process.env.STREAM_AUTH_KEY;
  if (givenKey !== undefined && givenKey.length < 16) throw new Error('STREAM_AUTH_KEY must be at least 16 characters');
  const streamAuthKey = givenKey ?? randomBytes(24).toString('base64url');
  const listenerAuthUrl = new URL('/api/stream-auth/listener', dhrUrl).toString();

  let server: IcecastServer;
  try {
    server = await startIcecast({
      port,
      host: values.host,
      listenerAuth: { mounts: PREMIUM_MOUNTS, url: listenerAuthUrl, key: streamAuthKey },
      // The web player reads in-band titles from this origin; Icecast 2.4 does not answer the CORS preflight.
      corsFront: true,
      log: (l) => process.env.RADIO_VERBOSE && console.error(l),
    });
  } catch (err) {
    console.error(`Could not start icecast2 on port ${port} (${err instanceof Error ? err.message : String(err)}). Is the port taken? Try --port 8010.`);
    process.exit(1);
  }

  let stopping = false;
  const stop = async (code: number) => {
    // A second Ctrl-C: leave at once (the exit hook still kills icecast2 and ffmpeg).
    if (stopping) process.exit(code || 130);
    stopping = true;
    console.log('\nStopping the local radio...');
    await server.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    const position: Record<string, number> = {};
    for (const [mount, feed] of Object.entries(FEEDS)) {
      await server.startFeed(mount, feed);
      position[mount] = 0;
      for (const m of TITLE_MOUNTS[mount] ?? [mount]) await server.setTitle(m, PLAYLISTS[mount]?.[0] ?? 'DHR - Live');
    }
    const timer = setInterval(() => {
      for (const mount of Object.keys(FEEDS)) {
        const list = PLAYLISTS[mount] ?? [];
        position[mount] = ((position[mount] ?? 0) + 1) % list.length;
        const song = list[position[mount]] ?? '';
        Promise.all((TITLE_MOUNTS[mount] ?? [mount]).map((m) => server.setTitle(m, song))).then(
          () => console.log(`${new Date().toISOString().slice(11, 19)}  /${mount}  ${song}`),
          (err: unknown) => console.error(`title change failed on /${mount}: ${err instanceof Error ? err.message : String(err)}`),
        );
      }
    }, intervalS * SECOND_MS);
    timer.unref();
  } catch (err) {
    console.error(`The local radio could not go on air: ${err instanceof Error ? err.message : String(err)}`);
    await stop(1);
    return;
  }

  const origin = server.origin.replace('127.0.0.1', values.host === '0.0.0.0' ? '127.0.0.1' : values.host);
  console.log(`Local radio on air at ${origin} (status: ${origin}/status-json.xsl)`);
  console.log(`Premium mounts ask DHR at ${listenerAuthUrl} about every listener.`);
  console.log('Start DHR with these lines in its environment (the URLs are the defaults when the port is 8000):\n');
  console.log(`DHR1_FREE_STREAM_URL=${origin}/${FREE_MOUNT}`);
  console.log(`DHR1_STREAM_URL=${origin}/dhr1`);
  console.log(`DHR2_STREAM_URL=${origin}/dhr2`);
  console.log(`STREAM_AUTH_KEY=${streamAuthKey}`);
  console.log(`ICECAST_ADMIN_PASSWORD=${server.adminPassword}`);
  console.log(
    `\nListen: ${origin}/${FREE_MOUNT} plays for anyone; ${origin}/dhr1 and ${origin}/dhr2 answer 401 without a member's token ` +
      `(DHR's players get one from /api/channels/{id}/stream). Titles change every ${intervalS} s. Ctrl-C stops everything.\n`,
  );
  for (const mount of Object.keys(FEEDS)) console.log(`${new Date().toISOString().slice(11, 19)}  /${mount}  ${PLAYLISTS[mount]?.[0]}`);
  // Keep the process alive until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
