import { CheckCircle2, Heart } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { SUPPORTER_MESSAGES, type SupporterActionReply } from '../../../../contracts/supporters';
import { tierLabel } from '../../../../contracts/tier-table';
import { TierBadge } from '../../../components/ui/badge';
import { ButtonLink } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFinishPatreonConnect } from '../api/finish-patreon-connect';
import { AuthShell } from '../components/auth-shell';
import { MessageBox } from '../components/message-box';

/**
 * /auth/patreon: where Patreon sends the member back (the OAuth redirect_uri). Takes code and state
 * off the address bar at once, then posts them; the server checks the state belongs to this session.
 */
export default function PatreonReturnPage() {
  useDocumentTitle('Connect Patreon');
  const finish = useFinishPatreonConnect();
  // Read once: the effect below removes them from the address bar.
  const [params] = useState(() => new URLSearchParams(window.location.search));
  const code = params.get('code');
  const state = params.get('state');
  const refused = params.get('error') ? SUPPORTER_MESSAGES.patreonDenied : !code || !state ? SUPPORTER_MESSAGES.patreonStateInvalid : null;
  const started = useRef(false);
  const { mutate } = finish;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The one-time code leaves the address bar (and the history) before anything else happens.
    window.history.replaceState(null, '', window.location.pathname);
    if (!refused && code && state) mutate({ code, state });
  }, [refused, code, state, mutate]);

  const outcome: { kind: 'done'; reply: SupporterActionReply } | { kind: 'error'; text: string } | null = refused
    ? { kind: 'error', text: refused }
    : finish.isSuccess
      ? { kind: 'done', reply: finish.data }
      : finish.isError
        ? { kind: 'error', text: errorMessage(finish.error, SUPPORTER_MESSAGES.patreonFailed) }
        : null;

  return (
    <AuthShell title="Connect Patreon" subtitle="Linking your Patreon membership to your Deep House Radio account.">
      {!outcome ? (
        <div className="flex flex-col items-center gap-3 py-6 text-sm text-mist-300">
          <Spinner label="Connecting Patreon..." />
          <p>Connecting Patreon...</p>
        </div>
      ) : outcome.kind === 'done' ? (
        <div className="space-y-5 text-center">
          <CheckCircle2 className="mx-auto size-10 text-emerald-300" aria-hidden />
          <MessageBox kind="success">{outcome.reply.message}</MessageBox>
          <p className="flex items-center justify-center gap-2 text-sm text-mist-300">
            Your tier now: <TierBadge tier={outcome.reply.subscriptionTier} />
          </p>
          {outcome.reply.subscriptionTier === 'free' && (
            <p className="text-sm text-mist-400">
              No {tierLabel('dhr1')} or higher pledge was found on that Patreon account yet; it applies as soon as Patreon tells us.
            </p>
          )}
          <div className="flex flex-col gap-3 sm:flex-row">
            <ButtonLink to="/" className="w-full sm:flex-1">
              Listen now
            </ButtonLink>
            <ButtonLink to="/auth" variant="secondary" className="w-full sm:flex-1">
              Your account
            </ButtonLink>
          </div>
        </div>
      ) : (
        <div className="space-y-5">
          <MessageBox kind="error">{outcome.text}</MessageBox>
          <ButtonLink to="/auth" variant="secondary" className="w-full">
            <Heart className="size-4" aria-hidden /> Back to your account
          </ButtonLink>
        </div>
      )}
    </AuthShell>
  );
}
