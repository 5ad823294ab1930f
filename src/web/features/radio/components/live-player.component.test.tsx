/**
 * The home page's live player as a listener uses it: Play, a stall, recovery by itself, and when a
 * title change is shown. Driven only through the page (buttons, status, title) and the network and
 * media doubles, so the tests hold whatever shape useStreamPlayer's insides take.
 */
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../../../contracts/channels';
import type { NowPlayingEvent } from '../../../../contracts/radio';
import { NOW_PLAYING_EVENT } from '../../../../contracts/radio-values';
import { installFakeEventSource } from '../../../test-support/fake-event-source';
import { json, stubFetch, type FakeRequest } from '../../../test-support/fake-fetch';
import { installFakeMedia, mediaOf, type MediaDriver } from '../../../test-support/fake-media';
import { advance, renderInApp } from '../../../test-support/render';
import { HomeLivePlayer } from './home-live-player';
import { RadioProvider } from './radio-provider';

const STREAM = 'https://stream.example.test/dhr1-128.mp3';
const DHR1: Channel = {
  id: 'dhr1',
  name: 'DHR1 Premium',
  colour: '#8b5cf6',
  bitrateLabel: '320kbps',
  requiredTier: 'dhr1',
  freeStreamUrl: STREAM,
  freeBitrateLabel: '128kbps',
};
/** Audio bytes between two ICY metadata blocks; the MediaSource double makes each byte one second. */
const META_INT = 10;

function nowPlaying(artist: string, title: string): NowPlayingEvent {
  return { channel: 'dhr1', online: true, artist, title, album: '', updatedAt: new Date().toISOString() };
}

const status = () => screen.getByTestId('player-status').textContent;
const shownTitle = () => `${screen.getByTestId('now-playing-artist').textContent} - ${screen.getByTestId('now-playing-title').textContent}`;
const playButton = () => screen.getByRole<HTMLButtonElement>('button', { name: /^(Play|Pause)$/ });
/** What the big button does now, and whether it may be pressed. */
const button = () => ({ label: playButton().getAttribute('aria-label'), enabled: playButton().getAttribute('aria-disabled') !== 'true' });

function audio(): HTMLAudioElement {
  const el = document.querySelector('audio');
  if (!el) throw new Error('no <audio> element');
  return el;
}

/** Renders the home player with its channel and first title loaded, and its event stream open. */
async function renderPlayer(routes: Record<string, (req: FakeRequest) => Response | Promise<Response>> = {}) {
  const events = installFakeEventSource();
  const api = stubFetch({
    'GET /api/channels': () => json([DHR1]),
    'GET /api/live-metadata': () => json({ artist: 'Kerri Chandler', title: 'Rain', album: '' }),
    ...routes,
  });
  renderInApp(
    <RadioProvider freeByDefault>
      <HomeLivePlayer />
    </RadioProvider>,
  );
  await advance();
  events.current().open();
  await advance();
  return { api, events, media: mediaOf(audio()) };
}

async function clickPlay() {
  fireEvent.click(playButton());
  await advance();
}

/** The audio arrives and plays: the listener sees Live Now. */
async function audioFlows(media: MediaDriver) {
  media.startPlaying();
  await advance();
  expect(status()).toBe('Live Now');
}

/** The jitter of the retry delays (Math.random) is pinned: a fast retry waits 1.5 s. */
const FAST_RETRY_MS = 1_500;

/**
 * After a drop: Reconnecting…, with the button stopping the wait (not disabled), then the
 * `attempt`th connection to the stream `delay` ms later, not sooner.
 */
async function expectRetryAfter(media: MediaDriver, delay: number, attempt: number) {
  await advance();
  expect(status()).toBe('Reconnecting…');
  // No made-up track while the stream is away: the channel's name and what is going on.
  expect(shownTitle()).toBe('Reconnecting… - Free Stream');
  expect(button()).toEqual({ label: 'Pause', enabled: true });
  await advance(delay - 1);
  expect(media.loads).toHaveLength(attempt - 1);
  await advance(1);
  expect(media.loads).toEqual(Array.from({ length: attempt }, () => STREAM));
}

/** The home player rendered, Play pressed and the audio playing. */
async function renderPlaying() {
  const player = await renderPlayer();
  await clickPlay();
  await audioFlows(player.media);
  return player;
}

describe('the live player: play, a stall and recovery', () => {
  beforeEach(() => {
    installFakeMedia();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
  });

  it('connects on Play, shows Connecting... until the audio plays, then Live Now; Pause stops it', async () => {
    const { media } = await renderPlayer();
    expect(status()).toBe('Ready to Stream');
    expect(media.loads).toEqual([]);

    await clickPlay();
    expect(media.loads).toEqual([STREAM]);
    expect(media.plays).toBe(1);
    expect(status()).toBe('Connecting...');
    expect(button().enabled).toBe(false);

    await audioFlows(media);
    expect(button()).toEqual({ label: 'Pause', enabled: true });

    fireEvent.click(playButton());
    await advance();
    expect(media.paused).toBe(true);
    expect(status()).toBe('Ready to Stream');
    expect(button()).toEqual({ label: 'Play', enabled: true });
  });

  it('plays on a Play pressed before the browser told of the Pause; a pause from outside still stops it', async () => {
    const { media } = await renderPlaying();
    const deliverPauses = media.holdPauseEvents();
    fireEvent.click(playButton());
    await advance();
    expect(status()).toBe('Ready to Stream');
    // Play again at once: the browser's news of the pause comes after it and must not undo it.
    fireEvent.click(playButton());
    deliverPauses();
    await advance();
    expect(status()).toBe('Connecting...');
    expect(media.loads).toEqual([STREAM, STREAM]);
    await audioFlows(media);

    // Headphones unplugged: a pause the player did not make is the listener's; the next Play connects.
    audio().pause();
    await advance();
    expect(status()).toBe('Ready to Stream');
    expect(button()).toEqual({ label: 'Play', enabled: true });
    await clickPlay();
    expect(media.loads).toEqual([STREAM, STREAM, STREAM]);
  });

  it('waits out a short stall, and reconnects by itself to the live edge after 15 s of one', async () => {
    const { media } = await renderPlaying();

    // A stall the buffer recovers from within 15 s: no reconnection.
    media.stall();
    await advance();
    expect(status()).toBe('Connecting...');
    await advance(10_000);
    media.startPlaying();
    await advance(20_000);
    expect(status()).toBe('Live Now');
    expect(media.loads).toHaveLength(1);

    // A download that stalls while the buffer plays on is not yet a stall: the 15 s start when it runs dry.
    media.fetchStalls();
    await advance(20_000);
    expect(status()).toBe('Live Now');
    expect(media.loads).toHaveLength(1);

    // A stall that lasts: after 15 s a retry is scheduled; meanwhile Connecting... and the listener may stop it.
    media.stall();
    await advance(14_999);
    expect(media.loads).toHaveLength(1);
    await advance(1);
    await expectRetryAfter(media, FAST_RETRY_MS, 2);
    expect(media.plays).toBe(2);

    await audioFlows(media);
  });

  it('retries every 1–2 s for the first 30 s of an outage, then backs off, and says Connection Error once it gives up', async () => {
    const { media } = await renderPlaying();

    media.fail();
    await expectRetryAfter(media, FAST_RETRY_MS, 2);
    // The second attempt fails too: still within seconds.
    media.fail();
    await expectRetryAfter(media, FAST_RETRY_MS, 3);
    // Failing on for 30 s: the retries slow down (2 s, 3 s, then longer), never more than 10 s apart.
    while (media.loads.length < 21) {
      media.fail();
      await advance(FAST_RETRY_MS);
    }
    media.fail();
    await expectRetryAfter(media, 2_000, 22);
    media.fail();
    await expectRetryAfter(media, 3_000, 23);

    // Every attempt fails for more than five minutes: the player stops trying.
    for (let i = 0; i < 20 && status() !== 'Connection Error'; i++) {
      media.fail();
      await advance(30_000);
    }
    expect(status()).toBe('Connection Error');
    expect(button()).toEqual({ label: 'Play', enabled: true });
    expect(audio().getAttribute('src')).toBeNull();
    const attempts = media.loads.filter((src) => src === STREAM).length;
    await advance(120_000);
    expect(media.loads.filter((src) => src === STREAM)).toHaveLength(attempts);

    // Play starts over.
    await clickPlay();
    expect(media.loads.at(-1)).toBe(STREAM);
    await audioFlows(media);
  });

  it('reconnects at once when the browser is back online instead of waiting out the delay', async () => {
    const { media } = await renderPlaying();
    media.fail();
    await expectRetryAfter(media, FAST_RETRY_MS, 2);
    media.fail();
    await advance(500);
    window.dispatchEvent(new Event('online'));
    await advance();
    expect(media.loads).toHaveLength(3);
    await audioFlows(media);
  });

  it('takes the server closing the stream as a drop and reconnects', async () => {
    const { media } = await renderPlaying();

    media.end();
    await expectRetryAfter(media, FAST_RETRY_MS, 2);
    await audioFlows(media);
  });
});

/** A stand-in Icecast answer with in-band titles: the test pushes audio and title blocks. */
function icecast() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const requests: FakeRequest[] = [];
  const route = (req: FakeRequest) => {
    requests.push(req);
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    req.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    return new Response(body, { headers: { 'content-type': 'audio/mpeg', 'icy-metaint': String(META_INT) } });
  };
  return {
    route,
    requests,
    /** META_INT bytes of audio, then a metadata block: `title`, or none (the title did not change). */
    send(title?: string) {
      const meta = title === undefined ? '' : `StreamTitle='${title}';`;
      const blocks = Math.ceil(meta.length / 16);
      const bytes = new Uint8Array(META_INT + 1 + blocks * 16);
      bytes[META_INT] = blocks;
      bytes.set(new TextEncoder().encode(meta), META_INT + 1);
      controller.enqueue(bytes);
    },
    close: () => controller.close(),
  };
}

/** The in-band reader is loaded on the first Play (a module import, not a timer): wait for its request. */
async function untilStreamRequested(stream: ReturnType<typeof icecast>, count: number) {
  await vi.waitFor(() => expect(stream.requests).toHaveLength(count));
  await advance();
}

describe('the live player: when a title change is shown', () => {
  it('without in-band titles (no MediaSource for MP3), shows a title the server pushes as it arrives', async () => {
    installFakeMedia();
    const { events } = await renderPlaying();
    expect(shownTitle()).toBe('Kerri Chandler - Rain');
    events.current().emit(NOW_PLAYING_EVENT, nowPlaying('Larry Heard', 'Can You Feel It'));
    await advance();
    expect(shownTitle()).toBe('Larry Heard - Can You Feel It');

    // Off air (no title): the channel's name and a status, never a placeholder that looks like a track.
    events.current().emit(NOW_PLAYING_EVENT, { ...nowPlaying('', ''), online: false });
    await advance();
    expect(shownTitle()).toBe('Title not available - Free Stream');
    fireEvent.click(playButton());
    await advance();
    expect(shownTitle()).toBe('Off air right now - Free Stream');
  });

  it('with in-band titles, shows a change when the audio reaches it, however early the server announces it', async () => {
    installFakeMedia({ mediaSource: true });
    const stream = icecast();
    const { events, media } = await renderPlayer({ [`GET ${STREAM}`]: stream.route });
    expect(shownTitle()).toBe('Kerri Chandler - Rain');

    await clickPlay();
    await untilStreamRequested(stream, 1);
    expect(stream.requests[0]!.headers.get('Icy-MetaData')).toBe('1');

    // The burst: 30 s of audio at once, 'Rain' starting at 10 s, 'Two' at 20 s.
    stream.send('Kerri Chandler - Rain');
    await advance();
    stream.send('Moodymann - Two');
    await advance();
    stream.send();
    await advance();
    media.startPlaying();
    media.playTo(5);
    await advance();
    expect(shownTitle()).toBe('Kerri Chandler - Rain');

    // The server runs a buffer ahead of what is heard: its title waits for the audio.
    events.current().emit(NOW_PLAYING_EVENT, nowPlaying('Moodymann', 'Two'));
    await advance();
    media.playTo(10);
    await advance();
    expect(shownTitle()).toBe('Kerri Chandler - Rain');
    media.playTo(19.9);
    await advance();
    expect(shownTitle()).toBe('Kerri Chandler - Rain');
    media.playTo(20);
    await advance();
    expect(shownTitle()).toBe('Moodymann - Two');

    // Paused, nothing is heard: the server's title is shown again, as it comes.
    fireEvent.click(playButton());
    await advance();
    events.current().emit(NOW_PLAYING_EVENT, nowPlaying('Theo Parrish', 'Three'));
    await advance();
    expect(shownTitle()).toBe('Theo Parrish - Three');
  });

  it('reconnects when the in-band stream drops, like any drop', async () => {
    installFakeMedia({ mediaSource: true });
    const stream = icecast();
    const { media } = await renderPlayer({ [`GET ${STREAM}`]: stream.route });
    await clickPlay();
    await untilStreamRequested(stream, 1);
    stream.send('Kerri Chandler - Rain');
    await audioFlows(media);

    stream.close();
    await advance();
    expect(status()).toBe('Reconnecting…');
    await advance(2_000);
    await untilStreamRequested(stream, 2);
  });
});
