import { Cast, ExternalLink, Moon } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo } from 'react';
import { cn } from '../../../lib/cn';
import { usePopover } from '../../../lib/use-popover';
import { usePopOutStart } from '../hooks/use-pop-out-handoff';
import { isCurrent, useRadio, type PlayerTarget, type SleepTimer } from '../hooks/use-radio';
import { useShownNowPlaying } from '../hooks/use-shown-now-playing';
import { formatCountdown, SLEEP_OPTIONS } from '../hooks/use-sleep-timer';
import { playerLabel, type PlayerState, type StreamPlayer, type StreamSource } from '../hooks/use-stream-player';
import { castStream } from '../lib/cast';
import { openPopOut } from '../lib/pop-out';
import { ChannelArt } from './channel-art';
import { PlayButton } from './play-button';
import { VolumeControl } from './volume-control';

export interface LivePlayerProps {
  /** FREE_PLAYER for the home stream, else the channel id; pop-out messages name it. */
  player: string;
  /** The channel whose now-playing this player shows (the free stream: its programme's channel). */
  channel: string;
  /** What to play: a public mount, or a premium one that asks for a token before each connection. */
  source: StreamSource | undefined;
  /** Station line above the title, e.g. 'DHR1 Premium'. */
  name: string;
  /** e.g. '320kbps'. */
  quality?: string | null;
  /** Channel colour for the glow, the art and the slider. */
  accent?: string;
  /** Hidden inside the pop-out itself. */
  showPopOut?: boolean;
  /** The pop-out starts playing on open. */
  autoPlay?: boolean;
  /** Called each time playback starts (the pop-out tells its opener to pause). */
  onPlaying?: () => void;
  /** Only status, play and title (the minimized pop-out). */
  compact?: boolean;
  className?: string;
}

/**
 * A page's live player card: a view of the site's one player (RadioProvider) for this page's stream.
 * While the site plays another stream this card shows its own as ready; Play switches over.
 */
export function LivePlayer({
  player,
  channel,
  source,
  name,
  quality = null,
  accent = '#8b5cf6',
  showPopOut = true,
  autoPlay = false,
  onPlaying,
  compact = false,
  className,
}: LivePlayerProps) {
  const radio = useRadio();
  const target = useMemo<PlayerTarget | undefined>(
    () => (source ? { player, channel, name, quality, accent, source } : undefined),
    [player, channel, name, quality, accent, source],
  );
  const current = isCurrent(radio, target);
  const { stream, offer, playTarget } = radio;
  // While nothing plays, the bar names this page's stream.
  useEffect(() => {
    if (target) offer(target);
  }, [target, offer]);

  const state: PlayerState = current ? stream.state : 'ready';
  const playing = current && stream.playing;
  const retrying = current && stream.retrying;
  const now = useShownNowPlaying(channel, name, { playing, retrying });
  const start = useCallback(() => {
    if (target) playTarget(target);
  }, [target, playTarget]);
  usePopOutStart(playing, autoPlay && target !== undefined, start, onPlaying);

  const loading = state === 'loading';
  // While a dropped stream waits for its next retry the button stops the attempt instead.
  const stoppable = playing || retrying;
  const busy = loading && !retrying;
  const onPress = () => (stoppable ? stream.pause() : start());

  return (
    <div className={cn('glass relative rounded-3xl p-5 sm:p-7', className)} style={{ boxShadow: `0 30px 80px -40px ${accent}` }} data-player={player}>
      {/* The glow is clipped on its own so the sleep menu may overflow the card. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden rounded-3xl">
        <div className="absolute -top-24 -right-16 size-64 rounded-full opacity-30 blur-3xl" style={{ background: accent }} />
      </div>
      <StatusLine state={state} playing={playing} retrying={retrying} name={name} quality={quality} />

      <div className="relative mt-5 flex items-center gap-4 sm:gap-5">
        <ChannelArt accent={accent} spinning={playing && !loading} className="size-16 sm:size-20" />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-[0.2em] text-aqua-300 uppercase">{now.isLive ? 'Now playing' : 'On air'}</p>
          <p className="mt-1 truncate text-xl font-bold text-white sm:text-2xl" data-testid="now-playing-title" title={now.title}>
            {now.title}
          </p>
          <p
            className={cn('truncate text-sm sm:text-base', now.isLive ? 'text-mist-300' : 'text-mist-400 italic')}
            data-testid="now-playing-artist"
            title={now.artist}
          >
            {now.artist}
          </p>
        </div>
        <PlayButton busy={busy} stoppable={stoppable} onPress={onPress} large />
      </div>

      {!compact && (
        <>
          <VolumeControl stream={stream} accent={accent} showValue className="relative mt-6" />
          <ActionsRow audioRef={stream.audioRef} name={name} player={player} sleep={radio.sleep} showPopOut={showPopOut} />
        </>
      )}
    </div>
  );
}

/** The status pill (the spec's four labels), the channel's name and the stream quality. */
function StatusLine({
  state,
  playing,
  retrying,
  name,
  quality,
}: {
  state: PlayerState;
  playing: boolean;
  retrying: boolean;
  name: string;
  quality?: string | null;
}) {
  const loading = state === 'loading';
  return (
    /* Wraps on narrow phones rather than cutting the channel's name. */
    <div className="relative flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2.5 gap-y-1.5">
        <span
          className={cn(
            'inline-flex shrink-0 items-center gap-2 rounded-full px-3 py-1 text-xs font-semibold tracking-wide whitespace-nowrap ring-1 ring-inset',
            state === 'error'
              ? 'bg-rose-500/15 text-rose-300 ring-rose-400/30'
              : playing && !loading
                ? 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/30'
                : 'bg-white/5 text-mist-200 ring-white/10',
          )}
          data-testid="player-status"
          role="status"
        >
          <span
            className={cn(
              'size-2 rounded-full',
              state === 'error' ? 'bg-rose-400' : playing && !loading ? 'animate-pulse bg-emerald-400' : loading ? 'animate-pulse bg-amber-300' : 'bg-mist-400',
            )}
          />
          {playerLabel(state, playing, retrying)}
        </span>
        <span className="text-xs font-semibold tracking-[0.14em] text-mist-400 uppercase sm:tracking-[0.2em]" data-testid="player-channel">
          {name}
        </span>
      </div>
      {/* Its room is kept while the channel list loads, so the line wraps the same before and after. */}
      <span className="min-w-14 shrink-0 text-right text-xs font-medium text-mist-400">{quality}</span>
    </div>
  );
}

/** Cast, the sleep timer menu and Pop Out. */
function ActionsRow({
  audioRef,
  name,
  player,
  sleep,
  showPopOut,
}: {
  audioRef: StreamPlayer['audioRef'];
  name: string;
  player: string;
  sleep: SleepTimer;
  showPopOut: boolean;
}) {
  return (
    <div className="relative mt-5 grid grid-cols-3 items-center gap-2 sm:flex sm:flex-wrap">
      <SecondaryButton onClick={() => void castStream(audioRef.current, { title: name, url: window.location.href })}>
        <Cast className="size-4" aria-hidden="true" /> Cast
      </SecondaryButton>
      <SleepMenu active={sleep.active} onChoose={sleep.set} onClear={sleep.clear} />
      {sleep.active && (
        <span className="col-span-3 inline-flex items-center gap-2 text-xs text-mist-300 max-sm:order-last" data-testid="sleep-remaining">
          Sleeping in <span className="font-semibold text-white tabular-nums">{formatCountdown(sleep.remainingMs)}</span>
        </span>
      )}
      {showPopOut && (
        <SecondaryButton onClick={() => openPopOut(player)} className="sm:ml-auto">
          <ExternalLink className="size-4" aria-hidden="true" /> Pop Out
        </SecondaryButton>
      )}
    </div>
  );
}

function SecondaryButton({
  onClick,
  children,
  active = false,
  className,
  ...rest
}: {
  onClick: () => void;
  children: React.ReactNode;
  active?: boolean;
  className?: string;
} & React.AriaAttributes) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={cn(
        'inline-flex h-9 items-center justify-center gap-1.5 rounded-full px-3 text-[0.8rem] font-medium whitespace-nowrap transition sm:gap-2 sm:px-3.5 sm:text-sm [&_svg]:shrink-0',
        active ? 'bg-deep-500/20 text-deep-300 ring-1 ring-deep-400/40' : 'bg-white/5 text-mist-200 ring-1 ring-white/10 hover:bg-white/10 hover:text-white',
        className,
      )}
      {...rest}
    >
      {children}
    </button>
  );
}

/** 'Sleep' on phones, where three buttons share a row. */
function SleepLabel() {
  return (
    <>
      <span className="sm:hidden">Sleep</span>
      <span className="hidden sm:inline">Sleep Timer</span>
    </>
  );
}

/** The 15/30/60/90 choice with Clear Timer. */
function SleepMenu({ active, onChoose, onClear }: { active: boolean; onChoose: (m: number) => void; onClear: () => void }) {
  const { open, setOpen, ref } = usePopover();
  const menuId = useId();

  return (
    <div ref={ref} className="relative">
      <SecondaryButton
        onClick={() => setOpen((o) => !o)}
        active={active}
        aria-expanded={open}
        aria-controls={menuId}
        aria-label="Sleep Timer"
        className="w-full"
      >
        <Moon className="size-4" aria-hidden="true" /> <SleepLabel />
      </SecondaryButton>
      {open && (
        <div
          id={menuId}
          role="menu"
          className="absolute bottom-full left-0 z-20 mb-2 w-44 rounded-2xl border border-white/10 bg-night-850/95 p-1.5 shadow-2xl shadow-black/60 backdrop-blur"
        >
          {SLEEP_OPTIONS.map((m) => (
            <button
              key={m}
              type="button"
              role="menuitem"
              onClick={() => {
                onChoose(m);
                setOpen(false);
              }}
              className="block w-full rounded-xl px-3 py-2 text-left text-sm text-mist-100 hover:bg-white/10"
            >
              {m} minutes
            </button>
          ))}
          {active && (
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                onClear();
                setOpen(false);
              }}
              className="mt-1 block w-full rounded-xl border-t border-white/5 px-3 py-2 text-left text-sm text-rose-300 hover:bg-white/10"
            >
              Clear Timer
            </button>
          )}
        </div>
      )}
    </div>
  );
}
