import { ArrowRight, KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer } from '../../../components/ui/page-container';

/** For members who subscribed before accounts had passwords. */
export function MemberNotice() {
  return (
    <PageContainer width="wide">
      <div className="flex flex-col gap-4 rounded-2xl border border-aqua-400/20 bg-gradient-to-r from-aqua-500/10 via-deep-600/10 to-transparent p-5 sm:flex-row sm:items-center sm:gap-5 sm:p-6">
        <div className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-aqua-500/15 text-aqua-300">
          <KeyRound className="size-5" aria-hidden="true" />
        </div>
        <div className="flex-1">
          <p className="font-semibold text-white">Existing members: set your password</p>
          <p className="mt-1 text-sm leading-relaxed text-mist-300">
            Subscribed on Patreon or Buy Me a Coffee before? Confirm your email and choose a password to sign in with it.
          </p>
        </div>
        <Link
          to="/set-password"
          className="inline-flex items-center gap-1.5 self-start rounded-full text-sm font-semibold text-aqua-300 transition hover:text-aqua-200 sm:self-center"
        >
          Set your password <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
    </PageContainer>
  );
}
