import { Link2, Mail, Search, UserRoundX } from 'lucide-react';
import { useRef, useState, type Ref } from 'react';
import { NO_PLATFORM_UNMATCHED, PLATFORM_NAMES, type UnmatchedSupporter } from '../../../../contracts/supporters';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useUnmatchedSupporters } from '../api/get-unmatched-supporters';
import { useUsers } from '../api/get-users';
import { useInviteSupporter } from '../api/invite-supporter';
import { useLinkSupporter } from '../api/link-supporter';
import { formatEuros } from '../lib/money';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { ListStates } from './admin-page-header';
import { LoadError } from '../../../components/ui/load-error';
import type { FormFeedback } from './create-user-form';
import { TextField } from '../../../components/ui/form-controls';
import { formatNumber } from '../../../lib/numbers';

const MEMBER_MATCHES = 5;

/** Active platform supporters matching no account, with Link to member and Invite. */
export function UnmatchedSupporters(feedback: FormFeedback) {
  const list = useUnmatchedSupporters();
  const [linkingKey, setLinkingKey] = useState<string | null>(null);
  const total = list.data?.total ?? 0;
  const rows = list.data?.supporters ?? [];

  return (
    <Card className="flex flex-col gap-5">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
          <UserRoundX className="size-5 text-deep-300" aria-hidden="true" />
          Unmatched supporters
          <span className="text-sm font-normal text-mist-400 tabular-nums" data-testid="unmatched-count">
            ({formatNumber(total)})
          </span>
        </h2>
        {list.isFetching && !list.isPending && <Spinner label="Updating list..." />}
      </header>
      <p className="-mt-2 text-sm text-mist-400">
        They pay on Patreon or Buy Me a Coffee but no Deep House Radio account matches. Link one to a member who pays under another email, or invite them: the
        sign-in link creates their account with the tier.
      </p>
      <ListStates
        read={list}
        what="the unmatched supporters"
        empty={rows.length === 0}
        loadingLabel="Loading supporters..."
        emptyText={list.data?.platformsConfigured === false ? NO_PLATFORM_UNMATCHED : 'Every paying supporter matches an account.'}
      >
        <ul className="flex flex-col gap-2.5" aria-label="Unmatched supporters">
          {rows.map((s) => {
            const key = `${s.platform}:${s.email}`;
            return (
              <SupporterRow
                key={key}
                supporter={s}
                linking={linkingKey === key}
                onLink={() => setLinkingKey(linkingKey === key ? null : key)}
                onDone={() => setLinkingKey(null)}
                {...feedback}
              />
            );
          })}
        </ul>
      </ListStates>
      {total > rows.length && <p className="text-sm text-mist-400">Showing the newest {formatNumber(rows.length)}.</p>}
    </Card>
  );
}

function SupporterRow({
  supporter: s,
  linking,
  onLink,
  onDone,
  onSuccess,
  onError,
}: { supporter: UnmatchedSupporter; linking: boolean; onLink: () => void; onDone: () => void } & FormFeedback) {
  const invite = useInviteSupporter();
  const searchRef = useRef<HTMLInputElement>(null);
  const toggleLinking = () => {
    onLink();
    // The search mounts on this render; focus it once it is there (as the forum's new thread does).
    if (!linking) requestAnimationFrame(() => searchRef.current?.focus());
  };
  return (
    <li
      className="rounded-2xl border border-white/5 bg-white/[0.025] px-4 py-3.5 transition hover:border-white/10 hover:bg-white/[0.04]"
      data-testid="supporter-row"
    >
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-3 lg:flex lg:items-center lg:gap-6">
        <div className="col-span-2 min-w-0 lg:w-[34%]">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-semibold text-white">{s.name || s.email}</span>
            <Badge tone={s.platform === 'patreon' ? 'red' : 'yellow'}>{PLATFORM_NAMES[s.platform]}</Badge>
          </div>
          <p className="truncate text-sm text-mist-300">{s.email}</p>
        </div>
        <dl className="col-span-2 grid min-w-0 flex-1 grid-cols-3 gap-3 text-xs">
          <div className="min-w-0">
            <dt className="text-mist-500">Tier</dt>
            <dd className="mt-0.5">
              <TierBadge tier={s.tier} />
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-mist-500">Amount</dt>
            {/* Never cut: the amount stays whole and "/ month" wraps under it on a phone. */}
            <dd className="text-mist-200 tabular-nums" data-testid="supporter-amount">
              <span className="whitespace-nowrap">{formatEuros(s.amountCents)}</span> <span className="whitespace-nowrap text-mist-400">/ month</span>
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-mist-500">Since</dt>
            <dd className="truncate text-mist-200">{formatDate(s.since)}</dd>
          </div>
        </dl>
        <div className="col-span-2 flex gap-2 lg:shrink-0">
          <Button
            variant="secondary"
            size="sm"
            onClick={toggleLinking}
            aria-expanded={linking}
            aria-label={`Link ${s.email} to a member`}
            className="flex-1 lg:flex-none"
          >
            <Link2 className="size-3.5" aria-hidden="true" /> Link
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="flex-1 lg:flex-none"
            disabled={invite.isPending}
            aria-label={`Invite ${s.email}`}
            onClick={() =>
              invite.mutate(
                { platform: s.platform, email: s.email },
                { onSuccess: (r) => onSuccess(`${r.message} (${s.email})`), onError: (err) => onError(errorMessage(err, 'Invite failed')) },
              )
            }
          >
            <Mail className="size-3.5" aria-hidden="true" /> {invite.isPending ? 'Sending...' : 'Invite'}
          </Button>
        </div>
      </div>
      {linking && <LinkToMember supporter={s} searchRef={searchRef} onDone={onDone} onSuccess={onSuccess} onError={onError} />}
    </li>
  );
}

/** Search members (email, username, name) and link the supporter to one of them. */
function LinkToMember({
  supporter,
  searchRef,
  onDone,
  onSuccess,
  onError,
}: { supporter: UnmatchedSupporter; searchRef: Ref<HTMLInputElement>; onDone: () => void } & FormFeedback) {
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const members = useUsers({ search: term, tier: '', status: '', limit: MEMBER_MATCHES, offset: 0 });
  const link = useLinkSupporter();
  const found = term ? (members.data?.users ?? []) : [];
  return (
    <div className="mt-3 flex flex-col gap-3 rounded-2xl border border-deep-400/30 bg-deep-500/[0.06] p-3 sm:p-4">
      <div className="relative">
        <TextField
          label={`Link ${supporter.email} to`}
          type="search"
          placeholder="Search members by email, username or name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          maxLength={200}
          ref={searchRef}
          className="[&_input]:pl-10"
        />
        <Search className="pointer-events-none absolute bottom-3.5 left-3.5 size-4 text-mist-500" aria-hidden="true" />
      </div>
      {term && members.isFetching && <Spinner label="Searching..." />}
      {term && !members.isFetching && members.isError ? (
        <LoadError what="the members" onRetry={() => void members.refetch()} compact />
      ) : (
        term && !members.isFetching && found.length === 0 && <p className="text-sm text-mist-400">No members match.</p>
      )}
      {found.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Matching members">
          {found.map((u) => (
            <li key={u.id} className="flex items-center justify-between gap-3 rounded-xl bg-night-900/60 px-3 py-2">
              <span className="min-w-0">
                <span className="block truncate text-sm font-semibold text-white">{[u.firstName, u.lastName].filter(Boolean).join(' ') || u.username}</span>
                <span className="block truncate text-xs text-mist-400">{u.email}</span>
              </span>
              <Button
                size="sm"
                disabled={link.isPending}
                aria-label={`Link to ${u.email}`}
                onClick={() =>
                  link.mutate(
                    { platform: supporter.platform, email: supporter.email, userId: u.id },
                    {
                      onSuccess: (r) => {
                        onSuccess(`${r.message} (${u.email})`);
                        onDone();
                      },
                      onError: (err) => onError(errorMessage(err, 'Link failed')),
                    },
                  )
                }
              >
                Link
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
