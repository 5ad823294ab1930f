import { describe, expect, it } from 'vitest';
import { formatCountdown } from '../hooks/use-sleep-timer';
import { RETRY_FAST_FOR_MS, RETRY_MAX_MS, retryDelay } from '../hooks/use-stream-recovery';
import { playerLabel } from '../hooks/use-stream-player';
import { isPauseParentMessage, popOutTarget } from './pop-out';

describe('player labels', () => {
  it('maps state and playing to the four labels', () => {
    expect(playerLabel('error', false)).toBe('Connection Error');
    expect(playerLabel('loading', true)).toBe('Connecting...');
    expect(playerLabel('ready', true)).toBe('Live Now');
    expect(playerLabel('ready', false)).toBe('Ready to Stream');
    // Recovering from a drop says so, until the stream plays again or the player gives up.
    expect(playerLabel('loading', false, true)).toBe('Reconnecting…');
    expect(playerLabel('error', false, true)).toBe('Connection Error');
  });
});

describe('retry delays', () => {
  it('retries within 1–2 s (jittered) for the first 30 s of an outage, then backs off gently to at most 10 s', () => {
    expect(retryDelay(0, 0, () => 0)).toBe(1_000);
    expect(retryDelay(29_999, 0, () => 0.999)).toBe(1_999);
    expect(retryDelay(RETRY_FAST_FOR_MS, 0, () => 0.5)).toBe(2_000);
    expect(retryDelay(RETRY_FAST_FOR_MS, 1, () => 0.5)).toBe(3_000);
    expect(retryDelay(RETRY_FAST_FOR_MS, 20, () => 0.5)).toBe(RETRY_MAX_MS);
    expect(retryDelay(RETRY_FAST_FOR_MS, 20, () => 0.999)).toBeLessThanOrEqual(1.2 * RETRY_MAX_MS);
  });
});

describe('sleep timer', () => {
  it('counts down as m:ss and h:mm:ss', () => {
    expect(formatCountdown(15 * 60_000)).toBe('15:00');
    expect(formatCountdown(90 * 60_000)).toBe('1:30:00');
    expect(formatCountdown(1)).toBe('0:01');
  });
});

describe('pop-out', () => {
  it('opens /player at 400x600 for home and /player/{channel} at 420x500', () => {
    expect(popOutTarget('free')).toEqual({ path: '/player', features: 'width=400,height=600' });
    expect(popOutTarget('dhr1')).toEqual({ path: '/player/dhr1', features: 'width=420,height=500' });
  });
  it('pauses only for a PAUSE_PARENT_PLAYER message of the same channel', () => {
    expect(isPauseParentMessage({ type: 'PAUSE_PARENT_PLAYER', channel: 'dhr1' }, 'dhr1')).toBe(true);
    expect(isPauseParentMessage({ type: 'PAUSE_PARENT_PLAYER', channel: 'dhr2' }, 'dhr1')).toBe(false);
    expect(isPauseParentMessage({ type: 'OTHER', channel: 'dhr1' }, 'dhr1')).toBe(false);
    expect(isPauseParentMessage('PAUSE_PARENT_PLAYER', 'dhr1')).toBe(false);
  });
});
