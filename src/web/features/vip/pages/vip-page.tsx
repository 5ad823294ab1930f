import { Clock, Crown, Disc3, Download, HardDrive, Lock, Play, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { MIX_GENRES, MIX_MESSAGES, type MixAccessInfo } from '../../../../contracts/mix-values';
import type { VipMix } from '../../../../contracts/mixes';
import { MIX_DOWNLOAD_TIER, MIX_PLAY_TIER } from '../../../../contracts/tier-policy';
import { TIER_TABLE, tierLabel } from '../../../../contracts/tier-table';
import { parseTier } from '../../../../contracts/tiers';
import { MediaPlayerView, useMediaPlayer } from '../../../components/media/media-player';
import { Badge } from '../../../components/ui/badge';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, errorMessage } from '../../../lib/http';
import { useAfterFirstPaint } from '../../../lib/use-after-first-paint';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { TierBenefits, usePermissions } from '../../auth';
import { getStreamUrl } from '../api/get-stream-url';
import { useVipMixes } from '../api/get-vip-mixes';
import { useRequestDownload } from '../api/request-download';
import { MixCard } from '../components/mix-card';
import { notify } from '../../../components/ui/toasts';
import { formatBytes, mixAccessInfo } from '../lib/mix-access';
import { formatNumber } from '../../../lib/numbers';
import { LoadError } from '../../../components/ui/load-error';
import { tierPrice } from '../../../lib/tier-prices';

/** Starts a download of `url` in the browser (the server sends it as an attachment). */
function startBrowserDownload(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/** Small counts in words, as the invitation writes them: 'two mixes a day'. */
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The tier that downloads mixes, named and priced on the invitation below the grid. */
const DOWNLOAD = TIER_TABLE[MIX_DOWNLOAD_TIER];

/**
 * /vip: everyone sees the library; MIX_PLAY_TIER and above play, MIX_DOWNLOAD_TIER downloads its
 * daily allowance. The server enforces every rule; this page only shows them.
 */
export default function VipPage() {
  useDocumentTitle('VIP Mix Library');
  const library = useVipMixes();
  const { data: mixes = [], isPending } = library;
  const permissions = usePermissions();
  const access = mixAccessInfo(permissions.data, permissions.isError);
  // The invitation to VIP under the grid renders after the first paint.
  const belowTheFold = useAfterFirstPaint();
  const download = useRequestDownload();

  const [query, setQuery] = useState('');
  const [genre, setGenre] = useState('all');
  const player = useMediaPlayer<VipMix>({
    streamUrl: (mix) => getStreamUrl(mix.id),
    notify,
    loadError: (mix, err) =>
      err instanceof ApiError && [403, 409, 429].includes(err.status) ? errorMessage(err, `Error Loading: ${mix.title}`) : `Error Loading: ${mix.title}`,
  });
  const { current, playing } = player;

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return mixes.filter((m) => (genre === 'all' || m.genre === genre) && (!q || m.title.toLowerCase().includes(q) || m.artist.toLowerCase().includes(q)));
  }, [mixes, query, genre]);

  function onPlay(mix: VipMix) {
    // The current mix always toggles; a new one plays only for DHR1 and above.
    if (current?.id !== mix.id && !access.canPlayMixes) return notify(access.message || MIX_MESSAGES.playRequiresSubscription, 'error');
    player.play(mix);
  }

  function onDownload(mix: VipMix) {
    const userId = permissions.data?.userId;
    if (!access.canDownload || !userId) return notify(MIX_MESSAGES.vipRequiredForDownloads, 'error');
    if (access.remainingDownloads <= 0) return notify(MIX_MESSAGES.dailyLimitReached, 'error');
    download.mutate(
      { mixId: mix.id, userId },
      {
        onSuccess: (grant) => {
          if (!grant.downloadUrl) return notify('Download URL not available', 'error');
          startBrowserDownload(grant.downloadUrl);
          notify(MIX_MESSAGES.downloadStarted(grant.remainingDownloads));
        },
        // fetch rejects with a TypeError when the request never reached the server.
        onError: (err) => notify(err instanceof TypeError ? MIX_MESSAGES.downloadNetworkError : errorMessage(err, MIX_MESSAGES.downloadFailed), 'error'),
      },
    );
  }

  return (
    <PageContainer className={current ? 'pt-10 pb-32 sm:pt-14' : 'py-10 sm:py-14'}>
      <LibraryHeader access={access} />

      <LibraryFigures mixes={mixes} />

      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <label className="glass flex h-12 shrink-0 items-center gap-3 rounded-full px-5 sm:flex-1">
          <Search className="size-4 text-mist-400" aria-hidden="true" />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search title or artist"
            aria-label="Search mixes"
            className="w-full bg-transparent text-sm text-white placeholder:text-mist-500 focus:outline-none"
          />
        </label>
        <select
          value={genre}
          onChange={(e) => setGenre(e.target.value)}
          aria-label="Genre"
          className="glass h-12 rounded-full bg-night-900 px-5 text-sm text-white capitalize sm:w-56"
        >
          <option value="all">All genres</option>
          {MIX_GENRES.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </div>

      {isPending ? (
        <div className="mt-16 flex justify-center">
          <Spinner label="Loading mixes..." />
        </div>
      ) : library.isError && mixes.length === 0 ? (
        // A failed read is not an empty library.
        <LoadError className="mt-16" what="the mix library" onRetry={() => void library.refetch()} retrying={library.isFetching} />
      ) : filtered.length === 0 ? (
        <p className="mt-16 text-center text-mist-400">{mixes.length === 0 ? 'No mixes yet.' : 'No mixes match your search.'}</p>
      ) : (
        <div className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {filtered.map((mix, i) => (
            <MixCard
              key={mix.id}
              mix={mix}
              priority={i < 2}
              playing={current?.id === mix.id && playing}
              onPlay={() => onPlay(mix)}
              onDownload={() => onDownload(mix)}
              downloading={download.isPending && download.variables?.mixId === mix.id}
              noDownloadsLeft={access.canDownload && access.remainingDownloads <= 0}
              downloadLocked={permissions.data && !access.canDownload ? { signedIn: permissions.data.authenticated } : undefined}
            />
          ))}
        </div>
      )}

      {!access.canDownload && permissions.data && belowTheFold && <VipInvitation authenticated={permissions.data.authenticated} />}

      <MediaPlayerView player={player} />
    </PageContainer>
  );
}

function Tile({ icon, label, value, hint }: { icon: React.ReactNode; label: string; value: string; hint?: string }) {
  return (
    <div className="glass rounded-2xl p-4 sm:p-5">
      <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.18em] text-mist-400 uppercase">
        <span className="text-aqua-300" aria-hidden="true">
          {icon}
        </span>
        {label}
      </p>
      <p className="mt-2 text-2xl font-bold text-white tabular-nums sm:text-3xl">{value}</p>
      {hint && <p className="mt-1 text-xs text-mist-500">{hint}</p>}
    </div>
  );
}

/** The title, and what this member's tier may do with the mixes. */
function LibraryHeader({ access }: { access: MixAccessInfo }) {
  const badgeLabel = tierLabel(parseTier(access.subscriptionTier) ?? 'free');
  return (
    <header className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
      <div>
        <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-amber-200 uppercase">
          <Crown className="size-4" aria-hidden="true" /> VIP Mix Library
        </p>
        <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white sm:text-5xl">Exclusive Mixes</h1>
        <p className="mt-2 max-w-xl text-mist-300">
          Deep, long-form sets you will not hear anywhere else. Play them with {tierLabel(MIX_PLAY_TIER)} and above; download them as a {DOWNLOAD.label}.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <Badge tone={access.subscriptionTier === 'vip' ? 'gold' : access.subscriptionTier === 'free' ? 'neutral' : 'cyan'} className="text-sm">
            <span data-testid="tier-badge">{badgeLabel}</span>
          </Badge>
          <Badge tone="green">View Mixes</Badge>
          <Badge tone={access.canPlayMixes ? 'green' : 'neutral'}>
            {access.canPlayMixes ? <Play className="size-3" aria-hidden="true" /> : <Lock className="size-3" aria-hidden="true" />} Play Mixes (
            {tierLabel(MIX_PLAY_TIER)}+)
          </Badge>
          <Badge tone={access.canDownload ? 'green' : 'neutral'}>
            {access.canDownload ? <Download className="size-3" aria-hidden="true" /> : <Lock className="size-3" aria-hidden="true" />} Download (
            {DOWNLOAD.label})
          </Badge>
        </div>
        {access.message && (
          <p data-testid="access-message" className="mt-3 text-sm text-aqua-200">
            {access.message}
          </p>
        )}
      </div>
    </header>
  );
}

/** The library's own figures, summed from the mixes listed: count, bytes, playing time, downloads. */
function LibraryFigures({ mixes }: { mixes: VipMix[] }) {
  const sum = (pick: (m: VipMix) => number) => mixes.reduce((n, m) => n + pick(m), 0);
  const hours = sum((m) => m.duration) / 3600;
  return (
    <div className="mt-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <Tile icon={<Disc3 className="size-4" />} label="Exclusive mixes" value={formatNumber(mixes.length)} />
      <Tile icon={<HardDrive className="size-4" />} label="Library size" value={mixes.length ? formatBytes(sum((m) => m.fileSize)) : '0 MB'} />
      <Tile icon={<Clock className="size-4" />} label="Playing time" value={`${formatNumber(hours, hours < 10 ? 1 : 0)} h`} />
      <Tile icon={<Download className="size-4" />} label="Downloads" value={formatNumber(sum((m) => m.totalDownloads))} />
    </div>
  );
}

/** Below the grid, for members who may not download: the download tier, its price and benefits. */
function VipInvitation({ authenticated }: { authenticated: boolean }) {
  return (
    <section className="glass below-fold mt-12 rounded-3xl p-6 text-center [contain-intrinsic-size:auto_454px] sm:p-10 sm:[contain-intrinsic-size:auto_462px]">
      <Crown className="mx-auto size-10 text-amber-300" aria-hidden="true" />
      <h2 className="mt-3 font-display text-2xl font-bold text-white">Become A {DOWNLOAD.label} Member</h2>
      <p className="mx-auto mt-2 max-w-lg text-mist-300">
        {tierPrice(MIX_DOWNLOAD_TIER)} a month opens the whole library for download,{' '}
        {COUNT_WORDS[DOWNLOAD.mixDownloadsPerDay] ?? formatNumber(DOWNLOAD.mixDownloadsPerDay)} mixes a day, on top of both channels.
      </p>
      <TierBenefits tier="vip" className="mx-auto mt-6 max-w-md text-left" />
      <ButtonLink to={authenticated ? '/auth' : '/simple-auth'} className="mt-6">
        <Crown className="size-4" aria-hidden="true" /> Become A {DOWNLOAD.label} Member
      </ButtonLink>
    </section>
  );
}
