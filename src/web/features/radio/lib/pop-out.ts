/** Message a pop-out player posts to its opener so the two do not play at once. */
export const PAUSE_PARENT_PLAYER = 'PAUSE_PARENT_PLAYER';

export interface PauseParentMessage {
  type: typeof PAUSE_PARENT_PLAYER;
  channel: string;
}

export function isPauseParentMessage(data: unknown, channel: string): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Partial<PauseParentMessage>;
  return m.type === PAUSE_PARENT_PLAYER && m.channel === channel;
}

/** The player key of the home page's free stream; channel players use the channel id. */
export const FREE_PLAYER = 'free';

/** The home pop-out is 400x600, a channel pop-out 420x500. */
export function popOutTarget(player: string): { path: string; features: string } {
  return player === FREE_PLAYER
    ? { path: '/player', features: 'width=400,height=600' }
    : { path: `/player/${encodeURIComponent(player)}`, features: 'width=420,height=500' };
}

export function openPopOut(player: string): void {
  const { path, features } = popOutTarget(player);
  window.open(path, `dhr-player-${player}`, features);
}
