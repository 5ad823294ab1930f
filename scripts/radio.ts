/**
 * `npm run radio`: a local Icecast with the two DHR channels, fed by ffmpeg with a gentle
 * deep-house-style loop (kick, off-beat hat, a slow minor-seventh pad), titles changing every minute.
 * Options: --port N (default 8000, which DHR's defaults already point at), --host ADDR (default 127.0.0.1),
 * --interval SECONDS (title changes; default 60).
 */
import { parseArgs } from 'node:util';
import { hasIcecast, ICECAST_INSTALL_HINT, startIcecast, type IcecastServer } from './lib/icecast';
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

const FEEDS: Record<string, { source: string; name: string; bitrateKbps: number }> = {
  // A minor 7 at 122 bpm; D minor 9 at 120 bpm.
  dhr1: { source: loop(122, [220, 261.63, 329.63, 392]), name: 'DHR1 Premium (local)', bitrateKbps: 128 },
  dhr2: { source: loop(120, [146.83, 174.61, 220, 261.63, 329.63]), name: 'DHR2 Exclusive (local)', bitrateKbps: 128 },
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '8000' }, host: { type: 'string', default: '127.0.0.1' }, interval: { type: 'string', default: '60' } },
  });
  if (!hasIcecast) {
    console.error(`npm run radio needs icecast2 and ffmpeg. Install them with: ${ICECAST_INSTALL_HINT}`);
    process.exit(1);
  }
  const port = Number(values.port);
  const intervalS = Number(values.interval);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port must be a port number');
  if (!(intervalS >= 5)) throw new Error('--interval must be at least 5 seconds');

  let server: IcecastServer;
  try {
    server = await startIcecast({ port, host: values.host, log: (l) => process.env.RADIO_VERBOSE && console.error(l) });
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
      await server.setTitle(mount, PLAYLISTS[mount]?.[0] ?? 'DHR - Live');
    }
    const timer = setInterval(() => {
      for (const mount of Object.keys(FEEDS)) {
        const list = PLAYLISTS[mount] ?? [];
        position[mount] = ((position[mount] ?? 0) + 1) % list.length;
        const song = list[position[mount]] ?? '';
        server.setTitle(mount, song).then(
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
  console.log('Point DHR at it (already the defaults when the port is 8000):\n');
  console.log(`DHR1_STREAM_URL=${origin}/dhr1`);
  console.log(`DHR2_STREAM_URL=${origin}/dhr2`);
  console.log(`\nListen: ${origin}/dhr1 and ${origin}/dhr2. Titles change every ${intervalS} s. Ctrl-C stops everything.\n`);
  for (const mount of Object.keys(FEEDS)) console.log(`${new Date().toISOString().slice(11, 19)}  /${mount}  ${PLAYLISTS[mount]?.[0]}`);
  // Keep the process alive until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
