/**
 * Playback with in-band titles: the stream is fetched with `Icy-MetaData: 1`, the ICY blocks are cut out
 * by icecast-metadata-js and the audio goes to the <audio> element through Media Source Extensions.
 * A title block arrives ahead of the audio it names by the whole buffer, so each title is kept with the
 * media time at which its audio starts (the buffered end when it came) and told only once playback gets
 * there. Loaded with the first Play, never with the page (docs/decisions/0029-one-now-playing-and-icy-timing.md).
 */
import { IcecastMetadataReader } from 'icecast-metadata-js';

/** Played media kept behind the playhead; older audio is removed so a long session stays within the buffer quota. */
const KEEP_BEHIND_S = 30;
const TRIM_AFTER_S = 90;

export interface IcyPlayback {
  stop(): void;
}

export interface IcyPlaybackOptions {
  /** A StreamTitle heard now. */
  onTitle: (streamTitle: string) => void;
  /** The stream ended or failed after it started: a drop. */
  onDrop: () => void;
}

/**
 * Thrown when this stream cannot be read this way; the caller plays the URL directly. `lasting`: the
 * host refuses the request itself (no CORS preflight, no ICY), not worth asking again in this tab.
 */
export class IcyUnavailable extends Error {
  constructor(
    message: string,
    readonly lasting: boolean,
  ) {
    super(message);
  }
}

function once(target: EventTarget, type: string): Promise<void> {
  return new Promise((resolve) => target.addEventListener(type, () => resolve(), { once: true }));
}

export async function startIcyPlayback(audio: HTMLAudioElement, url: string, options: IcyPlaybackOptions): Promise<IcyPlayback> {
  const abort = new AbortController();
  let stopped = false;
  let response: Response;
  try {
    response = await fetch(url, { headers: { 'Icy-MetaData': '1' }, cache: 'no-store', signal: abort.signal });
  } catch (err) {
    // A refused CORS preflight (a streaming host that does not answer OPTIONS) looks like a network error.
    throw new IcyUnavailable(err instanceof Error ? err.message : 'fetch failed', true);
  }
  const metaInt = Number.parseInt(response.headers.get('icy-metaint') ?? '', 10);
  const type = (response.headers.get('content-type') ?? 'audio/mpeg').split(';')[0]!.trim();
  if (!response.ok || !response.body) {
    abort.abort();
    throw new IcyUnavailable(`stream answered ${response.status}`, false);
  }
  if (!(metaInt > 0) || !MediaSource.isTypeSupported(type)) {
    abort.abort();
    throw new IcyUnavailable('no in-band metadata', true);
  }

  const media = new MediaSource();
  const objectUrl = URL.createObjectURL(media);
  audio.src = objectUrl;
  await once(media, 'sourceopen');
  const buffer = media.addSourceBuffer(type);
  buffer.mode = 'sequence';

  const pending: { at: number; title: string }[] = [];
  const tell = () => {
    while (pending.length > 0 && pending[0]!.at <= audio.currentTime + 0.05) options.onTitle(pending.shift()!.title);
  };
  audio.addEventListener('timeupdate', tell);

  const settle = async () => {
    if (buffer.updating) await once(buffer, 'updateend');
  };
  const bufferedEnd = () => (buffer.buffered.length > 0 ? buffer.buffered.end(buffer.buffered.length - 1) : 0);
  const trim = async () => {
    const start = buffer.buffered.length > 0 ? buffer.buffered.start(0) : 0;
    if (audio.currentTime - start < TRIM_AFTER_S) return;
    await settle();
    buffer.remove(start, audio.currentTime - KEEP_BEHIND_S);
    await settle();
  };
  const append = async (bytes: Uint8Array<ArrayBuffer>) => {
    if (stopped || bytes.length === 0) return;
    await settle();
    try {
      buffer.appendBuffer(bytes);
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'QuotaExceededError')) throw err;
      await trim();
      buffer.appendBuffer(bytes);
    }
    await settle();
    await trim();
  };

  const reader = new IcecastMetadataReader({
    icyMetaInt: metaInt,
    metadataTypes: ['icy'],
    onStream: ({ stream }) => append(stream),
    // Every byte before this block is in the buffer by now (the reader awaits each callback in turn).
    onMetadata: ({ metadata }) => {
      if (typeof metadata.StreamTitle !== 'string') return;
      pending.push({ at: bufferedEnd(), title: metadata.StreamTitle });
      tell();
    },
  });

  const body = response.body.getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await body.read();
        if (done || stopped) break;
        await reader.asyncReadAll(value);
      }
    } catch {
      // aborted, dropped or undecodable: all the same to the listener
    }
    if (!stopped) options.onDrop();
  })();

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      abort.abort();
      audio.removeEventListener('timeupdate', tell);
      URL.revokeObjectURL(objectUrl);
    },
  };
}
