import { Coffee, Heart, Link2, Unlink, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { SUPPORTER_MESSAGES } from '../../../../contracts/supporters';
import { tierLabel } from '../../../../contracts/tier-table';
import type { Tier } from '../../../../contracts/tiers';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatLongDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useConfirmPaymentClaim } from '../api/confirm-payment-claim';
import { useDisconnectPatreon } from '../api/disconnect-patreon';
import { useSupporterLinks } from '../api/get-supporter-links';
import { useRemovePaymentClaim } from '../api/remove-payment-claim';
import { useRequestPaymentClaim } from '../api/request-payment-claim';
import { useStartPatreonConnect } from '../api/start-patreon-connect';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from './message-box';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

type Notice = { kind: 'success' | 'error'; text: string } | null;

// The account card is narrow at every width: rows wrap rather than squeeze.
const rowClass = 'flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-white/10 bg-white/[0.03] p-4 text-left';
const iconClass = 'grid size-10 shrink-0 place-items-center rounded-xl ring-1 ring-white/10';

/** The Connect Patreon button alone (the gate's upgrade screen); nothing when the station has no Patreon client. */
export function ConnectPatreonButton({ className }: { className?: string }) {
  const links = useSupporterLinks();
  const connect = useStartPatreonConnect();
  if (!links.data?.patreon.available || links.data.patreon.connectedAt) return null;
  return (
    <div className={className}>
      <Button variant="secondary" onClick={() => connect.mutate()} disabled={connect.isPending} className="w-full sm:w-auto">
        <Link2 className="size-4" aria-hidden /> {connect.isPending ? 'Opening Patreon...' : 'Connect Patreon'}
      </Button>
      {connect.isError && <p className="mt-2 text-sm text-rose-300">{errorMessage(connect.error, SUPPORTER_MESSAGES.patreonFailed)}</p>}
    </div>
  );
}

/**
 * "Paid with another email?": Connect Patreon (OAuth) and claim a Buy Me a Coffee payment by a code
 * mailed to the payer email. Either gives the tier at once.
 */
export function SupporterLinksCard() {
  const links = useSupporterLinks();
  const [notice, setNotice] = useState<Notice>(null);
  const say: Say = {
    clear: () => setNotice(null),
    success: (text) => setNotice({ kind: 'success', text }),
    tier: (message, tier) => setNotice({ kind: 'success', text: `${message} Your tier: ${tierLabel(tier)}.` }),
    failed: (fallback) => (err) => setNotice({ kind: 'error', text: errorMessage(err, fallback) }),
  };

  if (links.isPending) return <Spinner label="Loading your linked payments..." />;
  if (!links.data) return null;
  const { patreon, payerEmails } = links.data;

  return (
    <section aria-labelledby="paid-elsewhere-heading" className="space-y-4 border-t border-white/10 pt-6">
      <div>
        <h2 id="paid-elsewhere-heading" className="text-base font-semibold text-white">
          Paid with another email?
        </h2>
        <p className="mt-1 text-sm leading-relaxed text-mist-300">
          Link your Patreon or Buy Me a Coffee payment to this account and your tier applies at once.
        </p>
      </div>
      {notice && <MessageBox kind={notice.kind}>{notice.text}</MessageBox>}
      {patreon.available && <PatreonRow connectedAt={patreon.connectedAt} say={say} />}
      <BuyMeACoffeeRow payerEmails={payerEmails} say={say} />
    </section>
  );
}

/** How the rows report to the card's one notice. */
interface Say {
  clear: () => void;
  success: (text: string) => void;
  /** A change that gave or took a tier: its message and the tier now. */
  tier: (message: string, tier: Tier) => void;
  failed: (fallback: string) => (err: unknown) => void;
}

/** Patreon: connected since when, with Disconnect; else Connect Patreon. */
function PatreonRow({ connectedAt, say }: { connectedAt: string | null; say: Say }) {
  const connect = useStartPatreonConnect();
  const disconnect = useDisconnectPatreon();
  return (
    <div className={rowClass}>
      <div className="flex min-w-0 items-center gap-3">
        <span className={`${iconClass} bg-rose-500/15 text-rose-200`}>
          <Heart className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="font-semibold text-white">Patreon</p>
          <p className="text-sm text-mist-400" data-testid="patreon-link-status">
            {connectedAt ? `Connected on ${formatLongDate(connectedAt)}` : 'Not connected'}
          </p>
        </div>
      </div>
      {connectedAt ? (
        <Button
          variant="ghost"
          size="sm"
          disabled={disconnect.isPending}
          onClick={() => {
            say.clear();
            disconnect.mutate(undefined, {
              onSuccess: (r) => say.tier(r.message, r.subscriptionTier),
              onError: say.failed(SUPPORTER_MESSAGES.patreonFailed),
            });
          }}
        >
          <Unlink className="size-4" aria-hidden /> Disconnect
        </Button>
      ) : (
        <Button size="sm" onClick={() => connect.mutate(undefined, { onError: say.failed(SUPPORTER_MESSAGES.patreonFailed) })} disabled={connect.isPending}>
          <Link2 className="size-4" aria-hidden /> {connect.isPending ? 'Opening Patreon...' : 'Connect Patreon'}
        </Button>
      )}
    </div>
  );
}

/** Buy Me a Coffee: the linked payer emails with Remove, and the claim by a mailed code. */
function BuyMeACoffeeRow({ payerEmails, say }: { payerEmails: { email: string }[]; say: Say }) {
  const remove = useRemovePaymentClaim();
  return (
    <div className="space-y-4 rounded-2xl border border-white/10 bg-white/[0.03] p-4 text-left">
      <div className="flex items-center gap-3">
        <span className={`${iconClass} bg-amber-400/15 text-amber-200`}>
          <Coffee className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="font-semibold text-white">Buy Me a Coffee</p>
          <p className="text-sm text-mist-400">We email a code to the address you paid with.</p>
        </div>
      </div>
      {payerEmails.length > 0 && (
        <ul className="space-y-2" aria-label="Linked payment emails">
          {payerEmails.map((p) => (
            <li key={p.email} className="flex items-center justify-between gap-3 rounded-xl bg-night-900/60 px-3 py-2 text-sm">
              <span className="min-w-0 truncate text-mist-100">{p.email}</span>
              <button
                type="button"
                className="grid size-8 shrink-0 place-items-center rounded-full text-mist-400 transition hover:bg-white/10 hover:text-white"
                aria-label={`Remove ${p.email}`}
                disabled={remove.isPending}
                onClick={() => {
                  say.clear();
                  remove.mutate({ email: p.email }, { onSuccess: (r) => say.tier(r.message, r.subscriptionTier), onError: say.failed('Could not remove it.') });
                }}
              >
                <X className="size-4" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <PaymentClaimForm say={say} />
    </div>
  );
}

/** The payer email, then the 6-digit code mailed to it, which links the payment. */
function PaymentClaimForm({ say }: { say: Say }) {
  const requestCode = useRequestPaymentClaim();
  const confirm = useConfirmPaymentClaim();
  const [payerEmail, setPayerEmail] = useState('');
  const [code, setCode] = useState('');
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);

  function sendCode(e: FormEvent) {
    e.preventDefault();
    say.clear();
    const email = payerEmail.trim();
    requestCode.mutate(
      { email },
      {
        onSuccess: (r) => {
          setCodeSentTo(email);
          say.success(r.message);
        },
        onError: say.failed('The code could not be sent. Please try again.'),
      },
    );
  }

  function linkPayment(e: FormEvent) {
    e.preventDefault();
    if (!codeSentTo) return;
    say.clear();
    confirm.mutate(
      { email: codeSentTo, code: code.trim() },
      {
        onSuccess: (r) => {
          say.tier(r.message, r.subscriptionTier);
          setCodeSentTo(null);
          setPayerEmail('');
          setCode('');
        },
        onError: say.failed('That code is not valid.'),
      },
    );
  }

  return codeSentTo ? (
    <form onSubmit={linkPayment} className="space-y-3" noValidate>
      <TextField
        size="lg"
        label={`6-digit code sent to ${codeSentTo}`}
        name="claimCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
      />
      <div className="flex flex-col gap-2">
        <Button type="submit" className="w-full" disabled={code.length !== 6 || confirm.isPending}>
          {confirm.isPending ? 'Linking...' : 'Link payment'}
        </Button>
        <Button variant="ghost" className="w-full" onClick={() => setCodeSentTo(null)}>
          Use another email
        </Button>
      </div>
    </form>
  ) : (
    <form onSubmit={sendCode} className="flex flex-col gap-3" noValidate>
      <TextField
        size="lg"
        label="Email you paid with"
        name="payerEmail"
        type="email"
        autoComplete="off"
        maxLength={EMAIL_MAX_LENGTH}
        value={payerEmail}
        onChange={(e) => setPayerEmail(e.target.value)}
      />
      <Button type="submit" variant="secondary" className="w-full" disabled={!payerEmail.trim() || requestCode.isPending}>
        {requestCode.isPending ? 'Sending...' : 'Send code'}
      </Button>
    </form>
  );
}
