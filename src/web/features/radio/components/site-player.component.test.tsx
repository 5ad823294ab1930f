/**
 * The site's one player as a listener uses it: the page's player card and the player bar are two
 * views of one stream in one <audio> element; Play keeps focus; Space and K play and pause from the
 * page but not while typing; the sleep timer is one 15/30/60/90 menu. Driven through what the
 * listener sees and the network and media doubles only.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { useMemo } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../../../contracts/channels';
import { installFakeEventSource } from '../../../test-support/fake-event-source';
import { json, stubFetch } from '../../../test-support/fake-fetch';
import { installFakeMedia, mediaOf } from '../../../test-support/fake-media';
import { advance, renderInApp } from '../../../test-support/render';
import { premiumSource } from '../api/get-stream-ticket';
import { HomeLivePlayer } from './home-live-player';
import { LivePlayer } from './live-player';
import { PlayerBar } from './player-bar';
import { RadioProvider } from './radio-provider';

const FREE = 'https://stream.example.test/dhr1-128.mp3';
const DHR2_URL = 'https://stream.example.test/dhr2?token=t1';
const CHANNELS: Channel[] = [
  { id: 'dhr1', name: 'DHR1 Premium', colour: '#8b5cf6', bitrateLabel: '320kbps', requiredTier: 'dhr1', freeStreamUrl: FREE, freeBitrateLabel: '128kbps' },
  { id: 'dhr2', name: 'DHR2 Exclusive', colour: '#22d3ee', bitrateLabel: '320kbps', requiredTier: 'dhr2', freeStreamUrl: null, freeBitrateLabel: null },
];

function Dhr2Player() {
  const source = useMemo(() => premiumSource('dhr2'), []);
  return <LivePlayer player="dhr2" channel="dhr2" source={source} name="DHR2 Exclusive" quality="320kbps" />;
}

/** The layout's player with the home card, optionally a channel card, the bar and a text field. */
async function renderSite({ withDhr2 = false } = {}) {
  const events = installFakeEventSource();
  stubFetch({
    'GET /api/channels': () => json(CHANNELS),
    'GET /api/live-metadata': () => json({ artist: 'Kerri Chandler', title: 'Rain', album: '' }),
    'GET /api/live-metadata/dhr2': () => json({ artist: 'Larry Heard', title: 'Can You Feel It', album: '' }),
    'GET /api/channels/dhr2/stream': () => json({ url: DHR2_URL, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
  });
  renderInApp(
    <RadioProvider freeByDefault>
      <div data-testid="home-card">
        <HomeLivePlayer />
      </div>
      {withDhr2 && (
        <div data-testid="dhr2-card">
          <Dhr2Player />
        </div>
      )}
      <label>
        Search <input type="search" />
      </label>
      <PlayerBar />
    </RadioProvider>,
  );
  await advance();
  events.current().open();
  await advance();
  const audios = document.querySelectorAll('audio');
  expect(audios).toHaveLength(1);
  return { media: mediaOf(audios[0]!) };
}

const card = (id = 'home-card') => within(screen.getByTestId(id));
const bar = () => within(screen.getByTestId('player-bar'));
const toggleIn = (scope: ReturnType<typeof within>) => scope.getByRole('button', { name: /^(Play|Pause)$/ });

describe('the site player', () => {
  beforeEach(() => installFakeMedia());

  it('keeps focus on Play, and Space or K play and pause from the page but not in a text field', async () => {
    const { media } = await renderSite();
    const play = toggleIn(card());
    play.focus();
    fireEvent.click(play);
    await advance();
    // Connecting: the button waits (aria-disabled) but keeps the keyboard focus.
    expect(document.activeElement).toBe(play);
    media.startPlaying();
    await advance();
    expect(document.activeElement).toBe(play);
    expect(play.getAttribute('aria-label')).toBe('Pause');
    expect(bar().getByTestId('bar-status').textContent).toBe('· Live Now');

    // Space on the page (focus on no control) pauses; K plays again.
    play.blur();
    fireEvent.keyDown(document.body, { key: ' ' });
    await advance();
    expect(media.paused).toBe(true);
    expect(toggleIn(bar()).getAttribute('aria-label')).toBe('Play');
    fireEvent.keyDown(document.body, { key: 'k' });
    await advance();
    expect(media.loads).toEqual([FREE, FREE]);
    media.startPlaying();
    await advance();
    expect(toggleIn(card()).getAttribute('aria-label')).toBe('Pause');

    // Typing a space or a k in a text field is typing.
    const field = screen.getByRole('searchbox');
    fireEvent.keyDown(field, { key: ' ' });
    fireEvent.keyDown(field, { key: 'k' });
    await advance();
    expect(media.paused).toBe(false);
    expect(media.loads).toHaveLength(2);
  });

  it('plays one stream in one element: the bar and the card show the same player, and a channel card switches it', async () => {
    const { media } = await renderSite({ withDhr2: true });
    fireEvent.click(toggleIn(card()));
    await advance();
    media.startPlaying();
    await advance();
    expect(media.loads).toEqual([FREE]);
    expect(bar().getByTestId('bar-channel').textContent).toBe('Free Stream');
    expect(bar().getByTestId('bar-title').textContent).toBe('Rain · Kerri Chandler');
    expect(toggleIn(card()).getAttribute('aria-label')).toBe('Pause');
    expect(toggleIn(card('dhr2-card')).getAttribute('aria-label')).toBe('Play');

    // The bar pauses what the card started.
    fireEvent.click(toggleIn(bar()));
    await advance();
    expect(media.paused).toBe(true);
    expect(toggleIn(card()).getAttribute('aria-label')).toBe('Play');

    // The channel card takes the same element over to its premium mount (a fresh token).
    fireEvent.click(toggleIn(card('dhr2-card')));
    await advance();
    await vi.waitFor(() => expect(media.loads.at(-1)).toBe(DHR2_URL));
    media.startPlaying();
    await advance();
    expect(bar().getByTestId('bar-channel').textContent).toBe('DHR2 Exclusive');
    expect(bar().getByTestId('bar-title').textContent).toBe('Can You Feel It · Larry Heard');
    expect(toggleIn(card('dhr2-card')).getAttribute('aria-label')).toBe('Pause');
    expect(toggleIn(card()).getAttribute('aria-label')).toBe('Play');
    expect(document.querySelectorAll('audio')).toHaveLength(1);
  });

  it('sets the one sleep timer from a 15/30/60/90 menu, never a prompt, and pauses when it fires', async () => {
    const prompt = vi.fn(() => null);
    vi.stubGlobal('prompt', prompt);
    const { media } = await renderSite();
    fireEvent.click(toggleIn(card()));
    await advance();
    media.startPlaying();
    await advance();

    fireEvent.click(card().getByRole('button', { name: 'Sleep Timer' }));
    const items = card()
      .getAllByRole('menuitem')
      .map((i) => i.textContent);
    expect(items).toEqual(['15 minutes', '30 minutes', '60 minutes', '90 minutes']);
    fireEvent.click(card().getByRole('menuitem', { name: '15 minutes' }));
    await advance();
    expect(card().getByTestId('sleep-remaining').textContent).toBe('Sleeping in 15:00');
    await advance(15 * 60_000);
    expect(media.paused).toBe(true);
    expect(bar().getByTestId('bar-status').textContent).toBe('· Ready to Stream');
    expect(prompt).not.toHaveBeenCalled();
  });
});
