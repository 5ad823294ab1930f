import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AzuraStationNowPlaying } from '../../../contracts/nowplaying';
import { SseHub } from '../events/sse-hub';

/**
 * AzuraCast's high-performance now playing over Server-Sent Events, as its Centrifugo answers it
 * (GET /api/live/nowplaying/sse?cf_connect={"subs":{"station:<shortcode>":{"recover":true}}}):
 * each message is a `data:` line of JSON; the first is `{"connect":{…,"subs":{"station:x":{"publications":
 * [{"data":{"np":…},"offset":n}]}}}}` with each subscribed station's current document, then
 * `{"channel":"station:x","pub":{"data":{"np":…,"current_time":t},"offset":n}}` with each change.
 * Streams are held by an SseHub of their own (DHR's hub, with its caps, heartbeat and slow-reader
 * drop), each joined to the audiences `station:<shortcode>` it subscribed to.
 */
export class AzuraSse {
  readonly hub = new SseHub();
  /** Centrifugo's stream position per channel: how many documents were published on it. */
  private readonly offsets = new Map<string, number>();
  /** Changes every start: a client's offsets from before it are not comparable (Centrifugo's epoch). */
  private readonly epoch = randomUUID().slice(0, 8);

  /** The station channels a `cf_connect` names, as their shortcodes; undefined when it is not a connect request. */
  static subscriptions(cfConnect: string | undefined): string[] | undefined {
    if (cfConnect === undefined) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(cfConnect);
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const subs = (parsed as { subs?: unknown }).subs;
    if (subs === undefined) return [];
    if (typeof subs !== 'object' || subs === null || Array.isArray(subs)) return undefined;
    return Object.keys(subs)
      .filter((name) => name.startsWith('station:'))
      .map((name) => name.slice('station:'.length).toLowerCase());
  }

  /** The connect message for a new stream: each known station's current document as its channel's publication. */
  connectFrame(docs: ReadonlyMap<string, AzuraStationNowPlaying>, nowMs: number): string {
    const subs: Record<string, unknown> = {};
    for (const [shortcode, np] of docs) {
      const channel = `station:${shortcode}`;
      const offset = this.offsets.get(channel) ?? 0;
      subs[channel] = { recoverable: true, epoch: this.epoch, offset, positioned: true, publications: [{ data: { np }, offset }] };
    }
    const connect = { client: randomUUID(), version: 'dhr', subs, ping: 25, pong: false, time: nowMs };
    return `data: ${JSON.stringify({ connect })}\n\n`;
  }

  /** Adds a stream that subscribed to these stations (shortcodes). */
  add(res: ServerResponse, client: string, shortcodes: readonly string[]): void {
    this.hub.add(res, client, new Set(shortcodes.map((s) => `station:${s}`)));
  }

  /** Sends a station's new document to the streams that subscribed to it. */
  publish(np: AzuraStationNowPlaying, nowMs: number): void {
    const channel = `station:${np.station.shortcode}`;
    const offset = (this.offsets.get(channel) ?? 0) + 1;
    this.offsets.set(channel, offset);
    const message = { channel, pub: { data: { np, current_time: Math.floor(nowMs / 1000) }, offset } };
    this.hub.broadcastRaw(`data: ${JSON.stringify(message)}\n\n`, channel);
  }
}
