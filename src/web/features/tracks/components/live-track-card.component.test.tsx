/** The live track card names one track as on air: never "On air: X" beside "Last identified: Y". */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TrackIdentification } from '../../../../contracts/radio';
import { installFakeEventSource } from '../../../test-support/fake-event-source';
import { json, stubFetch } from '../../../test-support/fake-fetch';
import { advance, renderInApp } from '../../../test-support/render';
import { LiveTrackCard } from './live-track-card';

const earlier: TrackIdentification = {
  id: '00000000-0000-4000-8000-000000000001',
  channel: 'dhr1',
  title: 'Rose Rouge',
  artist: 'St Germain',
  album: null,
  artwork: null,
  confidence: 96,
  service: 'audd',
  duration: null,
  releaseDate: null,
  label: null,
  identifiedAt: new Date(Date.now() - 20 * 60_000).toISOString(),
  youtubeUrl: null,
  soundcloudUrl: null,
  spotifyUrl: null,
  genre: null,
  bpm: null,
};

async function renderCard(onAir: { artist: string; title: string } | null) {
  installFakeEventSource();
  stubFetch({
    'GET /api/live-metadata': () => (onAir ? json({ ...onAir, album: '', online: true, updatedAt: new Date().toISOString() }) : json({}, 503)),
    'GET /api/track-monitor/current/dhr1': () => json({ track: null, isActive: true }),
    'GET /api/tracks/recent/dhr1': () => json([earlier]),
  });
  renderInApp(<LiveTrackCard channel="dhr1" channelName="DHR1 Premium" besideRecentList />);
  await advance();
  await advance();
}

describe('LiveTrackCard', () => {
  it('with a title on air, names that one only', async () => {
    await renderCard({ artist: 'Kerri Chandler', title: 'Rain' });
    expect(screen.getByTestId('live-track-on-air').textContent).toBe('On air: Kerri Chandler - Rain');
    expect(screen.queryByText(/Last identified/)).toBeNull();
    expect(screen.queryByText(/Rose Rouge/)).toBeNull();
  });

  it('with nothing on air, names the last identified track', async () => {
    await renderCard(null);
    expect(screen.getByText(/Last identified at .*: St Germain - Rose Rouge/)).toBeTruthy();
    expect(screen.queryByTestId('live-track-on-air')).toBeNull();
  });
});
