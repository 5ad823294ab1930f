import { MessageSquarePlus, Sparkles, Users } from 'lucide-react';
import { FORUM_STATS } from '../../../../contracts/news-values';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { tierList, tiersWith } from '../../../../contracts/tier-table';

/** Fixed marketing figures. */
export function ForumStats() {
  return (
    <dl className="grid grid-cols-2 gap-3">
      {FORUM_STATS.map((s) => (
        <div key={s.label} className="glass flex flex-col rounded-2xl p-4">
          <dd className="order-2 font-display text-2xl font-extrabold tracking-tight text-white">{s.value}</dd>
          <dt className="order-1 text-xs font-semibold tracking-wider text-mist-400 uppercase">{s.label}</dt>
        </div>
      ))}
    </dl>
  );
}

/** Shown to visitors who are not signed in. */
export function JoinTheDiscussion() {
  return (
    <Card highlight className="text-center">
      <Users className="mx-auto size-8 text-aqua-300" aria-hidden="true" />
      <h2 className="mt-3 font-display text-xl font-bold text-white">Join The Discussion</h2>
      <p className="mt-2 text-sm leading-relaxed text-mist-300">Sign in to start threads, comment on the news and talk deep house with the DHR community.</p>
      <div className="mt-5 flex flex-col gap-2 sm:flex-row sm:justify-center lg:flex-col">
        <ButtonLink to="/auth">Sign In</ButtonLink>
        <ButtonLink to="/auth" variant="secondary">
          Create Account
        </ButtonLink>
      </div>
    </Card>
  );
}

/** The welcome banner for signed-in members who may comment. */
export function WelcomeBanner({ name, composing, onStartThread }: { name: string; composing: boolean; onStartThread: () => void }) {
  return (
    <Card highlight>
      <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.2em] text-aqua-300 uppercase">
        <Sparkles className="size-4" aria-hidden="true" /> Member
      </p>
      <h2 className="mt-2 font-display text-xl font-bold text-white">Welcome back, {name}!</h2>
      <p className="mt-2 text-sm leading-relaxed text-mist-300">Share a release, plan a night out or start a discussion.</p>
      <button
        type="button"
        onClick={onStartThread}
        aria-expanded={composing}
        className="mt-4 inline-flex h-10 items-center gap-2 rounded-full bg-white/10 px-4 text-sm font-semibold text-white ring-1 ring-white/15 transition hover:bg-white/15"
      >
        <MessageSquarePlus className="size-4" aria-hidden="true" /> Start a thread
      </button>
    </Card>
  );
}

/** A signed-in member without a paid tier: what commenting needs. */
export function UpgradeToPost() {
  return (
    <Card>
      <h2 className="font-display text-lg font-bold text-white">Want to join in?</h2>
      <p className="mt-2 text-sm leading-relaxed text-mist-300">
        Threads and comments are for{' '}
        {tierList(
          tiersWith((row) => row.comments),
          'and',
        )}{' '}
        members.
      </p>
      <ButtonLink to="/auth" size="sm" className="mt-4">
        Subscribe
      </ButtonLink>
    </Card>
  );
}
