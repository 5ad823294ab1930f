import { Cast, ExternalLink, Moon, Pause, Play, Volume1, Volume2, VolumeX } from 'lucide-react';
import { useCallback, useId } from 'react';
import { cn } from '../../../lib/cn';
import { usePopover } from '../../../lib/use-popover';
import { useMediaSession } from '../hooks/use-media-session';
import { usePopOutHandoff } from '../hooks/use-pop-out-handoff';
import { formatCountdown, parseSleepMinutes, SLEEP_OPTIONS, useSleepTimer } from '../hooks/use-sleep-timer';
import { playerLabel, useStreamPlayer, type PlayerState, type StreamPlayer, type StreamSource } from '../hooks/use-stream-player';
import { castStream } from '../lib/cast';
import { heardTitles, splitStreamTitle } from '../lib/heard-titles';
import { openPopOut } from '../lib/pop-out';
import { Equalizer } from './equalizer';

export interface LivePlayerProps {
  /** FREE_PLAYER for the home stream, else the channel id; pop-out messages name it. */
  player: string;
  /** The channel whose now-playing this player's in-band titles feed (the free stream: its programme's channel). */
  channel: string;
  /** What to play: a public mount, or a premium one that asks for a token before each connection. */
  source: StreamSource | undefined;
  /** Station line above the title, e.g. 'DHR1 Premium'. */
  name: string;
  /** e.g. '320kbps'. */
  quality?: string | null;
  nowPlaying: { title: string; artist: string };
  /** Channel colour for the glow and the slider. */
  accent?: string;
  /** 'prompt' is the home page's Sleep Timer (asks for minutes); 'menu' offers 15/30/60/90. */
  sleepMode?: 'menu' | 'prompt';
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

type SleepTimer = ReturnType<typeof useSleepTimer>;

/** The live player. */
export function LivePlayer({
  player,
  channel,
  source,
  name,
  quality,
  nowPlaying,
  accent = '#8b5cf6',
  sleepMode = 'menu',
  showPopOut = true,
  autoPlay = false,
  onPlaying,
  compact = false,
  className,
}: LivePlayerProps) {
  const onStreamTitle = useCallback(
    (line: string | null) => {
      const heard = line === null ? null : splitStreamTitle(line, name);
      heardTitles.set(channel, heard && { ...heard, album: '', current_track: line ?? '', updatedAt: new Date().toISOString() });
    },
    [channel, name],
  );
  const stream = useStreamPlayer(source, { onStreamTitle });
  const { audioRef, state, playing, retrying, play, pause, toggle, stop } = stream;

  const sleep = useSleepTimer(
    useCallback(
      (minutes: number) => {
        pause();
        if (sleepMode === 'prompt') {
          window.alert(`Sleep timer: playback paused after ${minutes} minute${minutes === 1 ? '' : 's'}. Sweet dreams!`);
        }
      },
      [pause, sleepMode],
    ),
  );

  useMediaSession(true, nowPlaying, { play, pause, stop });
  usePopOutHandoff(player, stream, autoPlay && source !== undefined, onPlaying);

  const loading = state === 'loading';
  // While a dropped stream waits for its next retry the button stops the attempt instead.
  const stoppable = playing || retrying;

  return (
    <div className={cn('glass relative rounded-3xl p-5 sm:p-7', className)} style={{ boxShadow: `0 30px 80px -40px ${accent}` }} data-player={player}>
      {/* The glow is clipped on its own so the sleep menu may overflow the card. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden rounded-3xl">
        <div className="absolute -top-24 -right-16 size-64 rounded-full opacity-30 blur-3xl" style={{ background: accent }} />
      </div>
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a live music stream has no captions to give; its titles are shown as text below. */}
      <audio ref={audioRef} preload="none" />
      <StatusLine state={state} playing={playing} name={name} quality={quality} />

      <div className="relative mt-6 flex items-center gap-5">
        <button
          type="button"
          onClick={toggle}
          disabled={loading && !retrying}
          aria-label={stoppable ? 'Pause' : 'Play'}
          className={cn(
            'relative flex size-16 shrink-0 items-center justify-center rounded-full text-white transition sm:size-20',
            'bg-gradient-to-br from-deep-500 via-violet-500 to-aqua-500 shadow-[0_12px_40px_-10px_rgb(124_58_237/0.9)]',
            'hover:scale-[1.03] hover:brightness-110 active:scale-95 disabled:cursor-wait disabled:opacity-70 disabled:hover:scale-100',
          )}
        >
          {loading && !retrying ? (
            <span className="size-7 animate-spin rounded-full border-[3px] border-white/30 border-t-white" aria-hidden="true" />
          ) : stoppable ? (
            <Pause className="size-7 fill-current sm:size-8" aria-hidden="true" />
          ) : (
            <Play className="ml-1 size-7 fill-current sm:size-8" aria-hidden="true" />
          )}
        </button>
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-[0.2em] text-aqua-300 uppercase">Now playing</p>
          <p className="mt-1 truncate text-xl font-bold text-white sm:text-2xl" data-testid="now-playing-title" title={nowPlaying.title}>
            {nowPlaying.title}
          </p>
          <p className="truncate text-sm text-mist-300 sm:text-base" data-testid="now-playing-artist" title={nowPlaying.artist}>
            {nowPlaying.artist}
          </p>
        </div>
        <Equalizer active={playing && !loading} className="hidden sm:flex" />
      </div>

      {!compact && (
        <>
          <VolumeRow stream={stream} accent={accent} />
          <ActionsRow audioRef={audioRef} name={name} player={player} sleep={sleep} sleepMode={sleepMode} showPopOut={showPopOut} />
        </>
      )}
    </div>
  );
}

/** The status pill (the spec's four labels), the channel's name and the stream quality. */
function StatusLine({ state, playing, name, quality }: { state: PlayerState; playing: boolean; name: string; quality?: string | null }) {
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
          {playerLabel(state, playing)}
        </span>
        <span className="text-xs font-semibold tracking-[0.14em] text-mist-400 uppercase sm:tracking-[0.2em]" data-testid="player-channel">
          {name}
        </span>
      </div>
      {quality && <span className="shrink-0 text-xs font-medium text-mist-400">{quality}</span>}
    </div>
  );
}

/** Mute and the volume slider, in the channel's colour. */
function VolumeRow({ stream, accent }: { stream: StreamPlayer; accent: string }) {
  const { volume, muted, setVolume, toggleMute } = stream;
  const volumeId = useId();
  const VolumeIcon = muted || volume === 0 ? VolumeX : volume < 50 ? Volume1 : Volume2;
  return (
    <div className="relative mt-6 flex items-center gap-3">
      <button
        type="button"
        onClick={toggleMute}
        aria-label={muted ? 'Unmute' : 'Mute'}
        aria-pressed={muted}
        className="rounded-full p-2 text-mist-300 transition hover:bg-white/5 hover:text-white"
      >
        <VolumeIcon className="size-5" aria-hidden="true" />
      </button>
      <label htmlFor={volumeId} className="sr-only">
        Volume
      </label>
      <input
        id={volumeId}
        type="range"
        min={0}
        max={100}
        step={1}
        value={muted ? 0 : volume}
        onChange={(e) => setVolume(Number(e.target.value))}
        className="h-1.5 flex-1 cursor-pointer"
        style={{ accentColor: accent }}
      />
      <span className="w-9 text-right text-xs text-mist-400 tabular-nums">{muted ? 0 : volume}</span>
    </div>
  );
}

/** Cast, the sleep timer (a prompt on the home page, else a menu) and Pop Out. */
function ActionsRow({
  audioRef,
  name,
  player,
  sleep,
  sleepMode,
  showPopOut,
}: {
  audioRef: StreamPlayer['audioRef'];
  name: string;
  player: string;
  sleep: SleepTimer;
  sleepMode: 'menu' | 'prompt';
  showPopOut: boolean;
}) {
  const promptSleep = () => {
    const minutes = parseSleepMinutes(window.prompt('Sleep timer: stop the music after how many minutes?', '30'));
    if (minutes !== null) sleep.set(minutes);
  };
  return (
    <div className="relative mt-5 grid grid-cols-3 items-center gap-2 sm:flex sm:flex-wrap">
      <SecondaryButton onClick={() => void castStream(audioRef.current, { title: name, url: window.location.href })}>
        <Cast className="size-4" aria-hidden="true" /> Cast
      </SecondaryButton>
      {sleepMode === 'prompt' ? (
        <SecondaryButton onClick={promptSleep} active={sleep.active} aria-label="Sleep Timer">
          <Moon className="size-4" aria-hidden="true" /> <SleepLabel />
        </SecondaryButton>
      ) : (
        <SleepMenu active={sleep.active} onChoose={sleep.set} onClear={sleep.clear} />
      )}
      {sleep.active && (
        <span className="col-span-3 inline-flex items-center gap-2 text-xs text-mist-300 max-sm:order-last" data-testid="sleep-remaining">
          Sleeping in <span className="font-semibold text-white tabular-nums">{formatCountdown(sleep.remainingMs)}</span>
          {sleepMode === 'prompt' && (
            <button type="button" onClick={sleep.clear} className="text-aqua-300 underline-offset-2 hover:underline">
              Clear Timer
            </button>
          )}
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
