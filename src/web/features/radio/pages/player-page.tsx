import { Maximize2, Minimize2, Radio, X } from 'lucide-react';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { InvalidPlayer } from '../../../components/ui/invalid-player';
import { PageSpinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { accessForTier } from '../../../../contracts/access-policy';
import { AccessGate } from '../../auth';
import { useChannels } from '../api/get-channels';
import { premiumSource } from '../api/get-stream-ticket';
import { LivePlayer } from '../components/live-player';
import { publicSource } from '../hooks/use-stream-player';
import { FREE_STREAM_CHANNEL, FREE_STREAM_NAME } from '../lib/fallbacks';
import { FREE_PLAYER, PAUSE_PARENT_PLAYER, type PauseParentMessage } from '../lib/pop-out';

/** Pop-out players serve the two live channels; other ids get the Invalid Player screen. */
const POP_OUT_CHANNELS = new Set(['dhr1', 'dhr2']);

/** What another feature shows under the pop-out's player (the chat): given the free player or the channel id. */
export type PopOutExtra = (target: { free: boolean; channelId: string }) => ReactNode;

/** /player (the home stream, 400x600) and /player/:channel (420x500): the pop-out windows. */
export default function PlayerPage({ extra }: { extra?: PopOutExtra } = {}) {
  const { channel: param } = useParams();
  const player = param === undefined ? FREE_PLAYER : param.toLowerCase();
  const channelId = player === FREE_PLAYER ? FREE_STREAM_CHANNEL : player;
  const { data: channels, isPending, isError } = useChannels();

  if (player !== FREE_PLAYER && !POP_OUT_CHANNELS.has(player)) return <InvalidPlayer channel={param} />;
  if (isPending) return <PageSpinner label="Loading player..." />;
  const channel = channels?.find((c) => c.id === channelId);
  if (isError || !channel) return <InvalidPlayer channel={param} />;
  if (player === FREE_PLAYER) {
    if (!channel.freeStreamUrl) return <InvalidPlayer channel={param} />;
    return (
      <PopOut
        player={player}
        channelId={channel.id}
        name={FREE_STREAM_NAME}
        freeUrl={channel.freeStreamUrl}
        accent={channel.colour}
        quality={channel.freeBitrateLabel}
        extra={extra}
      />
    );
  }
  // The page is public; the premium mount plays only for members whose tier opens it.
  return (
    <AccessGate policy={accessForTier(channel.requiredTier)}>
      <PopOut player={player} channelId={channel.id} name={channel.name} accent={channel.colour} quality={channel.bitrateLabel} extra={extra} />
    </AccessGate>
  );
}

function PopOut({
  player,
  channelId,
  name,
  freeUrl,
  accent,
  quality,
  extra,
}: {
  player: string;
  channelId: string;
  name: string;
  /** The free stream's mount; a premium pop-out asks for a token instead. */
  freeUrl?: string;
  accent: string;
  quality: string | null;
  extra?: PopOutExtra;
}) {
  useDocumentTitle(`${name} Player`);
  const source = useMemo(() => (freeUrl ? publicSource(freeUrl) : premiumSource(channelId)), [freeUrl, channelId]);
  const [minimized, setMinimized] = useState(false);

  // This window plays now: the page that opened it pauses the same player.
  const tellOpener = useCallback(() => {
    const message: PauseParentMessage = { type: PAUSE_PARENT_PLAYER, channel: player };
    try {
      window.opener?.postMessage(message, window.location.origin);
    } catch {
      // the opener navigated to another site or closed
    }
  }, [player]);

  const toggleMinimize = () => {
    const next = !minimized;
    setMinimized(next);
    // Browsers let a script resize only windows it opened; the compact layout works either way.
    try {
      if (next) window.resizeTo(window.outerWidth, 260);
      else window.resizeTo(window.outerWidth, player === FREE_PLAYER ? 600 : 500);
    } catch {
      // not a pop-up window
    }
  };

  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-lg flex-col px-3 py-3 sm:px-4">
      <header className="mb-3 flex items-center justify-between gap-2">
        <h1 className="flex min-w-0 items-center gap-2 text-sm font-semibold text-white">
          <Radio className="size-4 shrink-0 text-aqua-300" aria-hidden="true" />
          <span className="truncate">Deep House Radio</span>
          <span className="sr-only">: {name} player</span>
        </h1>
        <span className="flex items-center gap-1">
          <button
            type="button"
            onClick={toggleMinimize}
            aria-label={minimized ? 'Restore player' : 'Minimize player'}
            className="rounded-full p-2 text-mist-300 transition hover:bg-white/10 hover:text-white"
          >
            {minimized ? <Maximize2 className="size-4" aria-hidden="true" /> : <Minimize2 className="size-4" aria-hidden="true" />}
          </button>
          <button
            type="button"
            onClick={() => window.close()}
            aria-label="Close player"
            className="rounded-full p-2 text-mist-300 transition hover:bg-rose-500/20 hover:text-rose-200"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </span>
      </header>
      <LivePlayer
        player={player}
        channel={channelId}
        source={source}
        name={name}
        quality={quality}
        accent={accent}
        showPopOut={false}
        autoPlay
        onPlaying={tellOpener}
        compact={minimized}
      />
      {!minimized && extra?.({ free: player === FREE_PLAYER, channelId })}
      {!minimized && <p className="mt-auto pt-4 text-center text-xs text-mist-500">Keep this window open to listen while you browse.</p>}
    </div>
  );
}
