import { NowPlayingBar } from './now-playing-bar';
import type { MediaPlayer, PlayableMedia } from './use-media-player';

export { useMediaPlayer, type MediaLink, type MediaPlayer, type PlayableMedia } from './use-media-player';

/** The audio element of a `useMediaPlayer` and, while something is selected, the bar fixed at the bottom of the page. */
export function MediaPlayerView<M extends PlayableMedia>({ player }: { player: MediaPlayer<M> }) {
  const { current } = player;
  return (
    <>
      {player.audioElement}
      {current && (
        <NowPlayingBar
          mix={current}
          playing={player.playing}
          position={player.position}
          duration={player.duration}
          onToggle={player.toggle}
          onSeek={player.seek}
          onClose={player.close}
          failed={player.failed}
          onRetry={player.retry}
        />
      )}
    </>
  );
}
