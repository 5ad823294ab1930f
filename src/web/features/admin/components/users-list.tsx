import { ChevronLeft, ChevronRight, Download, Pencil, Search, ShieldCheck, Users } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { MemberBucket } from '../../../../contracts/tier-policy';
import { tierLabel } from '../../../../contracts/tier-table';
import { tierBand } from '../../../lib/tier-prices';
import { memberFilterParams, readMemberFilters, type MemberListFilters } from '../lib/member-filters';
import type { AdminUser } from '../../../../contracts/admin';
import type { SubscriptionStatus, Tier } from '../../../../contracts/tiers';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/dates';
import { usersExportUrl } from '../api/export-users';
import { useUsers } from '../api/get-users';
import { formatEuros } from '../lib/money';
import { useDebouncedValue } from '../lib/use-debounced-value';
import type { FormFeedback } from './create-user-form';
import { SelectField, TextField } from '../../../components/ui/form-controls';
import { ACCESS_OPTIONS, ALL_STATUS_OPTIONS, SOURCE_LABEL, STATUS_LABEL, TIER_OPTIONS } from './options';
import { UserEditForm } from './user-edit-form';
import { ListStates } from './admin-page-header';
import { formatNumber } from '../../../lib/numbers';

/** Rows per page; the server caps a page at ADMIN_USERS_MAX_LIMIT. */
export const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;

/** 'All Users (shown of total)' with server-side search, filters and paging. */
export function UsersList(feedback: FormFeedback) {
  // The filters live in the URL, so a dashboard card's link opens the list filtered to its members
  // (a search typed here stays on the page; one in the URL is where it starts).
  const [params, setParams] = useSearchParams();
  const filters = readMemberFilters(params);
  const { tier, status, access, effectiveTier, pledgeBand } = filters;
  const [search, setSearch] = useState(filters.search);
  const [page, setPage] = useState(0);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [forExcel, setForExcel] = useState(true);
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);

  const setFilters = (change: Partial<MemberListFilters>) => {
    setParams((p) => memberFilterParams({ ...readMemberFilters(p), ...change }), { replace: true });
    setPage(0);
  };

  const users = useUsers({ ...filters, search: debouncedSearch, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const filtered = Boolean(search.trim() || tier || status || access || effectiveTier || pledgeBand);
  const rows = users.data?.users ?? [];
  const matching = users.data?.matching ?? 0;
  const matchingCapped = users.data?.matchingCapped ?? false;
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(matching / PAGE_SIZE));
  // A capped count ("1,000+") has more pages than it says: a full page may always have a next one.
  const hasNext = page + 1 < pages || (matchingCapped && rows.length === PAGE_SIZE);
  // One edit at a time; a member being edited who left the page (new search, reload) frees the others.
  const editing = editingId !== null && rows.some((u) => u.id === editingId);

  function clearFilters() {
    setSearch('');
    setParams(new URLSearchParams(), { replace: true });
    setPage(0);
  }

  return (
    <Card role="region" aria-labelledby="all-users-heading" className="flex min-w-0 flex-col gap-5">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="all-users-heading" className="flex items-center gap-3 text-lg font-semibold text-white">
          <Users className="size-5 text-deep-300" aria-hidden="true" />
          <span>
            All Users{' '}
            <span className="text-mist-400 tabular-nums" data-testid="users-count">
              ({formatNumber(rows.length)} of {formatNumber(total)})
            </span>
          </span>
        </h2>
        <div className="flex items-center gap-3">
          {users.isFetching && !users.isPending && <Spinner label="Updating list..." />}
          {/* Every member matching the filters now shown, not just this page. */}
          <label className="flex items-center gap-2 text-xs text-mist-300" title="Starts the file with a UTF-8 mark so Excel shows accented names right">
            <input type="checkbox" checked={forExcel} onChange={(e) => setForExcel(e.target.checked)} className="size-4 accent-aqua-400" />
            For Excel
          </label>
          <a href={usersExportUrl({ ...filters, search }, forExcel)} download className={buttonClasses('secondary', 'sm')}>
            <Download className="size-4" aria-hidden="true" /> Export CSV
          </a>
        </div>
      </header>

      <MemberFilterFields
        filters={filters}
        search={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(0);
        }}
        setFilters={setFilters}
        filtered={filtered}
        onClear={clearFilters}
      />

      <ListStates
        read={users}
        what="the members"
        showReason
        empty={rows.length === 0}
        loadingLabel="Loading users..."
        emptyText={filtered ? 'No users match your filters' : 'No users found'}
      >
        <ul className="flex flex-col gap-2.5" aria-label="Users">
          {rows.map((u) =>
            u.id === editingId ? (
              <li key={u.id}>
                <UserEditForm user={u} onDone={() => setEditingId(null)} {...feedback} />
              </li>
            ) : (
              <UserRow key={u.id} user={u} onEdit={() => setEditingId(u.id)} editDisabled={editing} />
            ),
          )}
        </ul>
      </ListStates>

      {/* Filtered, the count of every member the filters match shows even on one page: a dashboard figure links here. */}
      {(matching > PAGE_SIZE || (filtered && matching > 0)) && (
        <Pager page={page} setPage={setPage} matching={matching} matchingCapped={matchingCapped} filtered={filtered} hasNext={hasNext} />
      )}
    </Card>
  );
}

/** The search box, the four filters, Clear Filters, and the note on what "now" counts (with the pledge band filter). */
function MemberFilterFields({
  filters,
  search,
  onSearch,
  setFilters,
  filtered,
  onClear,
}: {
  filters: MemberListFilters;
  search: string;
  onSearch: (value: string) => void;
  setFilters: (change: Partial<MemberListFilters>) => void;
  filtered: boolean;
  onClear: () => void;
}) {
  const { tier, status, access, effectiveTier, pledgeBand } = filters;
  return (
    <>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end">
        <div className="relative sm:col-span-2 lg:col-span-1">
          <TextField
            label="Search"
            type="search"
            placeholder="Email, username, first or last name"
            value={search}
            onChange={(e) => onSearch(e.target.value)}
            maxLength={200}
            className="[&_input]:pl-10"
          />
          <Search className="pointer-events-none absolute bottom-3.5 left-3.5 size-4 text-mist-500" aria-hidden="true" />
        </div>
        <SelectField
          label="Access now"
          options={[{ value: '', label: 'Anyone' }, ...ACCESS_OPTIONS]}
          value={access}
          onChange={(e) => setFilters({ access: e.target.value as MemberBucket | '' })}
        />
        <SelectField
          label="Tier now"
          options={[{ value: '', label: 'All tiers' }, ...TIER_OPTIONS]}
          value={effectiveTier}
          onChange={(e) => setFilters({ effectiveTier: e.target.value as Tier | '' })}
        />
        <SelectField
          label="Stored tier"
          options={[{ value: '', label: 'All tiers' }, ...TIER_OPTIONS]}
          value={tier}
          onChange={(e) => setFilters({ tier: e.target.value as Tier | '' })}
        />
        <SelectField
          label="Stored status"
          options={[{ value: '', label: 'All statuses' }, ...ALL_STATUS_OPTIONS]}
          value={status}
          onChange={(e) => setFilters({ status: e.target.value as SubscriptionStatus | '' })}
        />
        <Button variant="ghost" onClick={onClear} disabled={!filtered} className="sm:col-span-2 lg:col-span-1">
          Clear Filters
        </Button>
      </div>

      <p className="-mt-2 text-xs text-mist-500">
        Access now and Tier now count as the dashboard does (what a member may use today); the stored tier and status are what their record says.
        {pledgeBand && (
          <>
            {' '}
            <span className="inline-flex items-center gap-1 rounded-full bg-white/5 px-2 py-0.5 text-mist-300" data-testid="pledge-band-filter">
              Pledging {tierBand(pledgeBand)} ({tierLabel(pledgeBand)} band)
              <button
                type="button"
                className="text-mist-400 hover:text-white"
                aria-label="Remove the pledge band filter"
                onClick={() => setFilters({ pledgeBand: '' })}
              >
                ×
              </button>
            </span>
          </>
        )}
      </p>
    </>
  );
}

/** "1–50 of 1,234 members" with Prev and Next. */
function Pager({
  page,
  setPage,
  matching,
  matchingCapped,
  filtered,
  hasNext,
}: {
  page: number;
  setPage: (update: (page: number) => number) => void;
  matching: number;
  matchingCapped: boolean;
  filtered: boolean;
  hasNext: boolean;
}) {
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-mist-400">
      <span className="tabular-nums">
        {formatNumber(page * PAGE_SIZE + 1)}–{formatNumber(Math.min(matching, (page + 1) * PAGE_SIZE))} of{' '}
        <span data-testid="users-matching">
          {formatNumber(matching)}
          {matchingCapped && '+'}
        </span>{' '}
        {filtered ? 'matching' : 'members'}
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={() => setPage((p) => p - 1)} disabled={page === 0} aria-label="Previous page">
          <ChevronLeft className="size-4" aria-hidden="true" /> Prev
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setPage((p) => p + 1)} disabled={!hasNext} aria-label="Next page">
          Next <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </span>
    </nav>
  );
}

function UserRow({ user: u, onEdit, editDisabled }: { user: AdminUser; onEdit: () => void; editDisabled: boolean }) {
  const name = [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username;
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-3 rounded-2xl border border-white/5 bg-white/[0.025] px-4 py-3.5 transition hover:border-white/10 hover:bg-white/[0.04] lg:flex lg:items-center lg:gap-6"
      data-testid="user-row"
    >
      <div className="col-span-2 min-w-0 lg:w-[34%]">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate font-semibold text-white">{name}</span>
          {name !== u.username && <span className="truncate text-xs text-mist-500">@{u.username}</span>}
        </div>
        <p className="truncate text-sm text-mist-300">{u.email}</p>
        <p className="truncate font-mono text-[0.7rem] text-mist-500" title={u.id}>
          ID {u.id}
        </p>
      </div>
      <div className="col-start-1 row-start-2 flex flex-wrap items-center gap-1.5 lg:w-[22%]">
        <TierBadge tier={u.subscriptionTier} />
        <Badge tone={u.subscriptionStatus === 'active' ? 'green' : 'red'}>{STATUS_LABEL[u.subscriptionStatus]}</Badge>
        {u.isAdmin && (
          <Badge tone="violet">
            <ShieldCheck className="size-3" aria-hidden="true" /> Admin
          </Badge>
        )}
      </div>
      <dl className="col-span-2 grid min-w-0 flex-1 grid-cols-3 gap-3 text-xs">
        <div className="min-w-0">
          <dt className="text-mist-500">Expiry</dt>
          <dd className="truncate text-mist-200">{u.subscriptionExpiry ? formatDate(u.subscriptionExpiry) : 'No expiry'}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-mist-500">Source</dt>
          <dd className="text-mist-200">{SOURCE_LABEL[u.subscriptionSource]}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-mist-500">Amount</dt>
          <dd className="truncate text-mist-200 tabular-nums">{formatEuros(u.pledgeAmount)}</dd>
        </div>
      </dl>
      <Button
        variant="secondary"
        size="sm"
        onClick={onEdit}
        disabled={editDisabled}
        aria-label={`Edit ${u.email}`}
        className="col-start-2 row-start-2 self-center"
      >
        <Pencil className="size-3.5" aria-hidden="true" /> Edit
      </Button>
    </li>
  );
}
