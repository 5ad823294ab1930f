import {
  ArrowUpRight,
  Database,
  FileUp,
  History,
  Loader2,
  MessageSquareWarning,
  RefreshCcw,
  ShoppingBag,
  Sparkles,
  Users,
  Activity,
  Inbox,
  Disc3,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn';
import { tierLabel } from '../../../../contracts/tier-table';
import { PRIORITY_SUPPORT_TIER } from '../../../../contracts/tier-policy';

const tileClass =
  'group glass relative flex w-full min-w-0 items-start gap-4 rounded-3xl p-4 text-left transition duration-200 sm:p-5 ' +
  'hover:-translate-y-0.5 hover:border-deep-400/40 hover:bg-white/[0.06] disabled:cursor-wait disabled:opacity-70 disabled:hover:translate-y-0';

function TileBody({
  icon: Icon,
  title,
  description,
  external,
  spin,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  external?: boolean;
  spin?: boolean;
}) {
  return (
    <>
      <span className="grid size-11 shrink-0 place-items-center rounded-2xl bg-gradient-to-br from-deep-600/40 to-aqua-500/25 text-white ring-1 ring-white/10 transition group-hover:from-deep-500/60">
        <Icon className={cn('size-5', spin && 'animate-spin')} aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-1.5 font-semibold text-white">
          {title}
          {external && <ArrowUpRight className="size-4 text-mist-500 transition group-hover:text-aqua-300" aria-label="opens in a new tab" />}
        </span>
        <span className="mt-1 block text-sm leading-snug text-mist-400">{description}</span>
      </span>
    </>
  );
}

function TileLink({ to, ...body }: { to: string; icon: LucideIcon; title: string; description: string }) {
  return (
    <Link to={to} className={tileClass}>
      <TileBody {...body} />
    </Link>
  );
}

export interface AdminTilesProps {
  onSync: () => void;
  syncing: boolean;
  onBulkImport: () => void;
}

/** The spec's nine tools, the contact inbox and the DJ submissions queue. */
export function AdminTiles({ onSync, syncing, onBulkImport }: AdminTilesProps): ReactNode {
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 xl:grid-cols-3" aria-label="Admin tools">
      <li className="flex">
        <TileLink to="/user-management" icon={Users} title="User Management" description="Find, create and edit members, assign tiers." />
      </li>
      <li className="flex">
        <TileLink
          to="/forum-moderation"
          icon={MessageSquareWarning}
          title="Comment Moderation"
          description="Review held comments and forum threads, and bans."
        />
      </li>
      <li className="flex">
        <button type="button" className={tileClass} onClick={onSync} disabled={syncing} aria-busy={syncing}>
          <TileBody
            icon={syncing ? Loader2 : RefreshCcw}
            title={syncing ? 'Syncing...' : 'Sync Systems'}
            description="Pull memberships from Patreon and Buy Me a Coffee now."
            spin={syncing}
          />
        </button>
      </li>
      <li className="flex">
        <TileLink to="/vip-admin" icon={Sparkles} title="VIP Content" description="Manage the VIP mix library and its storage links." />
      </li>
      <li className="flex">
        <button type="button" className={tileClass} onClick={onBulkImport}>
          <TileBody icon={FileUp} title="Bulk Import" description="Import or update members from a CSV file." />
        </button>
      </li>
      <li className="flex">
        <TileLink to="/storage-setup" icon={Database} title="Storage Setup" description="Media storage mode, space used and mixes without links." />
      </li>
      <li className="flex">
        <TileLink to="/admin/track-history" icon={History} title="Track History" description="Every identified track, with export." />
      </li>
      <li className="flex">
        <TileLink to="/live-monitor" icon={Activity} title="Live User Monitor" description="Who is listening right now, and where." />
      </li>
      <li className="flex">
        <TileLink to="/shop-admin" icon={ShoppingBag} title="Shop Management" description="Products, prices and stock of the merch shop." />
      </li>
      <li className="flex">
        <TileLink
          to="/admin/contact"
          icon={Inbox}
          title="Contact Inbox"
          description={`Messages from the contact form; ${tierLabel(PRIORITY_SUPPORT_TIER)} priority support first.`}
        />
      </li>
      <li className="flex">
        <TileLink to="/admin/submissions" icon={Disc3} title="DJ Submissions" description="Review submitted mixes and answer their DJs." />
      </li>
    </ul>
  );
}
