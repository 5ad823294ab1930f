import { describe, expect, it } from 'vitest';
import { formatCountdown, parseSleepMinutes } from '../hooks/use-sleep-timer';
import { playerLabel } from '../hooks/use-stream-player';
import { isPauseParentMessage, popOutTarget } from './pop-out';

describe('player labels', () => {
  it('maps state and playing to the four labels', () => {
    expect(playerLabel('error', false)).toBe('Connection Error');
    expect(playerLabel('loading', true)).toBe('Connecting...');
    expect(playerLabel('ready', true)).toBe('Live Now');
    expect(playerLabel('ready', false)).toBe('Ready to Stream');
  });
});

describe('home Sleep Timer prompt', () => {
  it('accepts positive numbers of minutes and ignores the rest', () => {
    expect(parseSleepMinutes('30')).toBe(30);
    expect(parseSleepMinutes(' 1.5 ')).toBe(1.5);
    for (const bad of [null, '', 'soon', '10 minutes', '-5', '0', 'Infinity', '1e3', '100000']) expect(parseSleepMinutes(bad)).toBeNull();
  });
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
