import { Award, BadgeCheck, Camera, ImagePlus, LayoutDashboard, LogOut, MapPin, Pencil, Globe, CalendarDays, UserCheck, UserPlus } from 'lucide-react';
import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { PROFILE_MESSAGES, PROFILE_VISIBILITIES, type Profile, type ProfileVisibility } from '../../../../contracts/community';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { UploadProgress } from '../../../components/ui/file-picker';
import { TextAreaField, TextField } from '../../../components/ui/form-controls';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatLongDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { usePermissions, useSignOut } from '../../auth';
import { useSetFollowing } from '../api/follow-member';
import { useProfile } from '../api/get-profile';
import { useUpdateProfile } from '../api/update-profile';
import { usePictureUpload } from '../hooks/use-picture-upload';
import { notify } from '../../../components/ui/toasts';
import { Avatar } from './avatar';
import { PAID_TIERS, tierList } from '../../../../contracts/tier-table';

type Tab = 'profile' | 'activity' | 'badges' | 'settings';
const VISIBILITY_LABEL: Record<ProfileVisibility, string> = { public: 'Public: anyone', subscribers: 'Subscribers only', private: 'Private: only me' };
const VERIFIED_BY = { admin: 'DHR team', subscription: 'an active subscription', email: 'a confirmed email' } as const;

/** A member's profile: the owner edits, uploads pictures and chooses who may see it. */
export default function ProfileDialog({ userId, open, onOpenChange }: { userId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { data: me } = usePermissions();
  const profile = useProfile(userId);
  const own = me?.userId === userId;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={own ? 'Your profile' : (profile.data?.username ?? 'Member profile')}
      description={own ? (me?.email ?? undefined) : 'Deep House Radio member'}
      size="lg"
    >
      {profile.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner />
        </div>
      ) : profile.isError ? (
        <div className="space-y-4 py-8 text-center">
          <p className="text-lg font-semibold text-white">{PROFILE_MESSAGES.notFound}</p>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Go Back
          </Button>
        </div>
      ) : (
        <ProfileBody profile={profile.data} signedIn={Boolean(me?.authenticated)} isAdminViewer={Boolean(me?.isAdmin)} onClose={() => onOpenChange(false)} />
      )}
    </Dialog>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-2xl border border-white/5 bg-white/[0.03] px-3 py-2.5 text-center">
      <p className="font-display text-xl font-bold text-white tabular-nums">{value}</p>
      <p className="text-[0.7rem] tracking-wider text-mist-400 uppercase">{label}</p>
    </div>
  );
}

function ProfileBody({ profile, signedIn, isAdminViewer, onClose }: { profile: Profile; signedIn: boolean; isAdminViewer: boolean; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('profile');
  const [editing, setEditing] = useState(false);
  const follow = useSetFollowing();
  const pictures = usePictureUpload(profile.id);
  const owner = profile.isOwner;
  const tabs: Tab[] = owner ? ['profile', 'activity', 'badges', 'settings'] : ['profile', 'activity', 'badges'];

  return (
    <div className="-mx-6 -mt-5">
      <Banner url={profile.profileBannerUrl} onPick={owner ? pictures.onPick('banner') : undefined} />
      <div className="px-6">
        <div className="-mt-12 flex items-end justify-between gap-3">
          <ProfilePicture profile={profile} onPick={owner ? pictures.onPick('profile') : undefined} />
          <div className="flex flex-wrap justify-end gap-2 pb-1">
            {!owner && signedIn && (
              <Button
                size="sm"
                variant={profile.isFollowing ? 'secondary' : 'primary'}
                disabled={follow.isPending}
                onClick={() => follow.mutate({ id: profile.id, follow: !profile.isFollowing })}
              >
                {profile.isFollowing ? <UserCheck className="size-4" aria-hidden /> : <UserPlus className="size-4" aria-hidden />}
                {profile.isFollowing ? 'Following' : 'Follow'}
              </Button>
            )}
            {owner && (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => {
                  setTab('profile');
                  setEditing((v) => !v);
                }}
              >
                <Pencil className="size-4" aria-hidden /> Edit Profile
              </Button>
            )}
          </div>
        </div>
        {pictures.saving && <p className="mt-2 text-xs text-aqua-200">Saving...</p>}
        {pictures.uploading && <UploadProgress value={pictures.progress} label="Picture upload" className="mt-2" />}

        <div className="mt-3">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-display text-2xl font-bold text-white">{profile.username}</h3>
            <TierBadge tier={profile.subscriptionTier} />
            {profile.isVerified && (
              <Badge tone="cyan">
                <BadgeCheck className="size-3.5" aria-hidden /> Verified
              </Badge>
            )}
          </div>
          {profile.bio && <p className="mt-2 text-sm leading-relaxed whitespace-pre-wrap text-mist-200">{profile.bio}</p>}
        </div>

        <div className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Stat label="Followers" value={profile.followerCount} />
          <Stat label="Following" value={profile.followingCount} />
          <Stat label="Reputation" value={profile.reputationScore} />
          <Stat label="Badges" value={profile.badgeCount} />
        </div>

        <SectionTabs tabs={tabs} tab={tab} onTab={setTab} />

        <div role="tabpanel" className="py-5">
          {tab === 'profile' && (editing && owner ? <EditForm profile={profile} onDone={() => setEditing(false)} /> : <ProfileTab profile={profile} />)}
          {tab === 'activity' && (
            <dl className="grid grid-cols-3 gap-2">
              <Stat label="Comments" value={profile.commentCount} />
              <Stat label="Following" value={profile.followingCount} />
              <Stat label="Reputation" value={profile.reputationScore} />
            </dl>
          )}
          {tab === 'badges' && <BadgesTab profile={profile} />}
          {tab === 'settings' && owner && <SettingsTab profile={profile} />}
        </div>

        {owner && <OwnerActions isAdminViewer={isAdminViewer} onClose={onClose} />}
      </div>
    </div>
  );
}

/** The banner; its owner (given `onPick`) may change it. */
function Banner({ url, onPick }: { url: string | null; onPick: ((e: ChangeEvent<HTMLInputElement>) => void) | undefined }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="relative h-32 overflow-hidden bg-gradient-to-br from-deep-700 via-night-850 to-aqua-600/50 sm:h-40">
      {url && <img src={url} alt="" className="size-full object-cover" />}
      {onPick && (
        <>
          <button
            type="button"
            onClick={() => input.current?.click()}
            className="glass absolute top-3 right-3 inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-xs font-semibold text-white"
          >
            <ImagePlus className="size-3.5" aria-hidden /> Change banner
          </button>
          <input ref={input} type="file" accept="image/jpeg,image/png,image/webp,image/gif" className="hidden" onChange={onPick} aria-label="Upload banner" />
        </>
      )}
    </div>
  );
}

/** The profile picture; its owner (given `onPick`) may change it. */
function ProfilePicture({ profile, onPick }: { profile: Profile; onPick: ((e: ChangeEvent<HTMLInputElement>) => void) | undefined }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="relative">
      <Avatar name={profile.username} imageUrl={profile.profileImageUrl} size="lg" className="ring-4" />
      {onPick && (
        <>
          <button
            type="button"
            onClick={() => input.current?.click()}
            aria-label="Change profile picture"
            className="absolute right-0 bottom-0 flex size-8 items-center justify-center rounded-full bg-aqua-500 text-night-950 shadow-lg"
          >
            <Camera className="size-4" aria-hidden />
          </button>
          <input
            ref={input}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            className="hidden"
            onChange={onPick}
            aria-label="Upload profile picture"
          />
        </>
      )}
    </div>
  );
}

function SectionTabs({ tabs, tab, onTab }: { tabs: Tab[]; tab: Tab; onTab: (tab: Tab) => void }) {
  return (
    <div role="tablist" aria-label="Profile sections" className="mt-5 flex gap-1 overflow-x-auto border-b border-white/5">
      {tabs.map((t) => (
        <button
          key={t}
          role="tab"
          type="button"
          aria-selected={tab === t}
          onClick={() => onTab(t)}
          className={cn(
            '-mb-px border-b-2 px-3 py-2 text-sm font-medium capitalize transition',
            tab === t ? 'border-aqua-400 text-white' : 'border-transparent text-mist-400 hover:text-white',
          )}
        >
          {t}
        </button>
      ))}
    </div>
  );
}

/** The owner's Dashboard (admins) and Sign Out. */
function OwnerActions({ isAdminViewer, onClose }: { isAdminViewer: boolean; onClose: () => void }) {
  const [signOutFailed, setSignOutFailed] = useState(false);
  const signOut = useSignOut({ onFailed: () => setSignOutFailed(true), failedDelayMs: 1500 });
  return (
    <div className="flex flex-col gap-3 border-t border-white/5 py-5 sm:flex-row">
      {signOutFailed && <p className="text-sm text-rose-300">Sign out failed</p>}
      {isAdminViewer && (
        <ButtonLink to="/admin-dashboard" variant="secondary" className="w-full sm:w-auto sm:flex-1" onClick={onClose}>
          <LayoutDashboard className="size-4" aria-hidden /> Dashboard
        </ButtonLink>
      )}
      <Button variant="danger" className="w-full sm:w-auto sm:flex-1" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        <LogOut className="size-4" aria-hidden /> {signOut.isPending ? 'Signing out...' : 'Sign Out'}
      </Button>
    </div>
  );
}

function Row({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-center gap-3 text-sm text-mist-200">
      <span className="text-aqua-300">{icon}</span>
      <span className="min-w-0 truncate">{children}</span>
    </li>
  );
}

function ProfileTab({ profile }: { profile: Profile }) {
  return (
    <div className="space-y-4">
      <ul className="space-y-2.5">
        {profile.location && <Row icon={<MapPin className="size-4" aria-hidden />}>{profile.location}</Row>}
        {profile.website && (
          <Row icon={<Globe className="size-4" aria-hidden />}>
            <a href={profile.website} target="_blank" rel="noopener noreferrer nofollow ugc" className="text-aqua-200 hover:underline">
              {profile.website}
            </a>
          </Row>
        )}
        <Row icon={<CalendarDays className="size-4" aria-hidden />}>Joined {formatLongDate(profile.joinDate)}</Row>
      </ul>
      {profile.favoriteGenres.length > 0 && (
        <div>
          <p className="mb-2 text-xs tracking-wider text-mist-400 uppercase">Favorite genres</p>
          <div className="flex flex-wrap gap-2">
            {profile.favoriteGenres.map((g) => (
              <Badge key={g} tone="violet">
                {g}
              </Badge>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

function BadgesTab({ profile }: { profile: Profile }) {
  const all = [
    { name: 'Supporter', earned: profile.badges.includes('Supporter'), text: `Keeps the station on air with a ${tierList(PAID_TIERS, 'or')} subscription.` },
    {
      name: 'Verified',
      earned: profile.badges.includes('Verified'),
      text: profile.verificationMethod ? `Verified by ${VERIFIED_BY[profile.verificationMethod]}.` : 'Confirm your email or subscribe to be verified.',
    },
  ];
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {all.map((b) => (
        <li
          key={b.name}
          className={cn('flex gap-3 rounded-2xl border p-4', b.earned ? 'border-amber-300/30 bg-amber-400/5' : 'border-white/5 bg-white/[0.02] opacity-60')}
        >
          <Award className={cn('size-6 shrink-0', b.earned ? 'text-amber-300' : 'text-mist-500')} aria-hidden />
          <div>
            <p className="font-semibold text-white">
              {b.name} {!b.earned && <span className="text-xs font-normal text-mist-400">(not earned yet)</span>}
            </p>
            <p className="text-sm text-mist-300">{b.text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function EditForm({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const update = useUpdateProfile();
  const [form, setForm] = useState({
    bio: profile.bio ?? '',
    location: profile.location ?? '',
    website: profile.website ?? '',
    genres: profile.favoriteGenres.join(', '),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const favoriteGenres = form.genres
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean)
      .slice(0, 10);
    update.mutate(
      { id: profile.id, changes: { bio: form.bio, location: form.location, website: form.website, favoriteGenres } },
      { onSuccess: onDone, onError: (err) => notify(errorMessage(err, 'Failed to update profile')) },
    );
  };
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  return (
    <form onSubmit={submit} className="space-y-3">
      <TextAreaField label="Bio" rows={3} maxLength={500} value={form.bio} onChange={set('bio')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Location" maxLength={100} value={form.location} onChange={set('location')} />
        <TextField label="Website" type="url" placeholder="https://" maxLength={300} value={form.website} onChange={set('website')} />
      </div>
      <TextField
        label="Favorite genres (comma separated)"
        maxLength={400}
        value={form.genres}
        onChange={set('genres')}
        placeholder="deep house, minimal, organic house"
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={update.isPending}>
          Save Profile
        </Button>
      </div>
    </form>
  );
}

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex items-center justify-between gap-4 rounded-2xl border border-white/5 bg-white/[0.03] px-4 py-3 text-sm text-mist-100">
      {label}
      <input type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} className="size-5 accent-aqua-400" />
    </label>
  );
}

function SettingsTab({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const save = (changes: Parameters<typeof update.mutate>[0]['changes']) =>
    update.mutate({ id: profile.id, changes }, { onError: (err) => notify(errorMessage(err, 'Failed to update profile')) });
  return (
    <div className="space-y-3">
      <Toggle label="Email notifications" checked={profile.emailNotifications ?? true} onChange={(v) => save({ emailNotifications: v })} />
      <Toggle label="Chat notifications" checked={profile.chatNotifications ?? true} onChange={(v) => save({ chatNotifications: v })} />
      <label className="flex flex-col gap-2 rounded-2xl border border-white/5 bg-white/[0.03] px-4 py-3 text-sm text-mist-100 sm:flex-row sm:items-center sm:justify-between">
        Profile visibility
        <select
          value={profile.profileVisibility ?? 'public'}
          onChange={(e) => save({ profileVisibility: e.target.value as ProfileVisibility })}
          className="h-9 rounded-full border border-white/10 bg-night-900 px-3 text-sm text-white"
        >
          {PROFILE_VISIBILITIES.map((v) => (
            <option key={v} value={v}>
              {VISIBILITY_LABEL[v]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
