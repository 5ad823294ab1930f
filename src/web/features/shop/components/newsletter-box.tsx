import { Mail, MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/http';
import { useSubscribeNewsletter } from '../api/subscribe-newsletter';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** The shop's newsletter box: subscribing mails a confirmation link (double opt-in). */
export function NewsletterBox() {
  const [email, setEmail] = useState('');
  const subscribe = useSubscribeNewsletter();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    subscribe.mutate(email.trim(), { onSuccess: () => setEmail('') });
  }

  return (
    <Card highlight padding="lg" className="overflow-hidden">
      <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-64 rounded-full bg-aqua-500/20 blur-3xl" />
      <div className="relative grid grid-cols-1 items-center gap-6 lg:grid-cols-2">
        <div>
          <h2 className="flex items-center gap-2 font-display text-2xl font-bold text-white sm:text-3xl">
            <Mail className="size-6 text-aqua-300" aria-hidden="true" /> Stay in the loop
          </h2>
          <p className="mt-2 text-mist-300">New merch, vinyl drops and members-only deals. No spam; unsubscribe with one click.</p>
        </div>
        {subscribe.isSuccess ? (
          <p role="status" className="flex items-start gap-3 rounded-2xl border border-emerald-400/30 bg-emerald-500/10 px-4 py-3 text-sm text-emerald-100">
            <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> {subscribe.data.message}
          </p>
        ) : (
          <form onSubmit={onSubmit} className="flex flex-col gap-2">
            <div className="flex flex-col gap-2 sm:flex-row">
              <label htmlFor="newsletter-email" className="sr-only">
                Email address
              </label>
              <input
                id="newsletter-email"
                type="email"
                required
                maxLength={EMAIL_MAX_LENGTH}
                autoComplete="email"
                placeholder="you@example.com"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className="h-12 w-full min-w-0 rounded-full sm:flex-1 border border-white/10 bg-night-900/70 px-5 text-base text-white placeholder:text-mist-500 focus:border-aqua-400/60 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none"
              />
              <Button type="submit" size="lg" disabled={subscribe.isPending || !email.trim()}>
                {subscribe.isPending ? 'Subscribing...' : 'Subscribe'}
              </Button>
            </div>
            {subscribe.isError && (
              <p role="alert" className="px-2 text-sm text-rose-300">
                {errorMessage(subscribe.error, 'Subscription failed. Please try again.')}
              </p>
            )}
          </form>
        )}
      </div>
    </Card>
  );
}
