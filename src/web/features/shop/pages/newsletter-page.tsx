import { MailCheck, MailX } from 'lucide-react';
import { useLocation } from 'react-router';
import { NEWSLETTER_PAGES } from '../../../../contracts/shop';
import { SHOP_MESSAGES } from '../../../../contracts/shop-values';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageContainer } from '../../../components/ui/page-container';
import { errorMessage } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFragmentToken } from '../../auth';
import { useNewsletterLink } from '../api/subscribe-newsletter';

/**
 * /newsletter/confirm#token=... and /newsletter/unsubscribe#token=...: one press confirms or ends the
 * subscription (a press, not the page load: mail scanners open links).
 */
export default function NewsletterPage() {
  const mode = useLocation().pathname.startsWith(NEWSLETTER_PAGES.unsubscribe) ? 'unsubscribe' : 'confirm';
  useDocumentTitle(mode === 'confirm' ? 'Confirm your subscription' : 'Unsubscribe');
  const token = useFragmentToken();
  const action = useNewsletterLink(mode);
  const Icon = mode === 'confirm' ? MailCheck : MailX;
  return (
    <PageContainer width="narrow" className="py-16 sm:py-24">
      <Card padding="lg" className="mx-auto flex max-w-md flex-col items-center gap-5 text-center">
        <span className="grid size-14 place-items-center rounded-2xl bg-gradient-to-br from-deep-600/40 to-aqua-500/25 text-aqua-300 ring-1 ring-white/10">
          <Icon className="size-7" aria-hidden="true" />
        </span>
        <h1 className="font-display text-2xl font-bold text-white">{mode === 'confirm' ? 'Confirm your subscription' : 'Unsubscribe from the newsletter'}</h1>
        {!token ? (
          <p role="alert" className="text-rose-200">
            {SHOP_MESSAGES.newsletterLinkInvalid}
          </p>
        ) : action.isSuccess ? (
          <p role="status" className="text-emerald-200">
            {action.data.message}
          </p>
        ) : (
          <>
            <p className="text-mist-300">
              {mode === 'confirm'
                ? 'One press and you get new merch, vinyl drops and deals from the DHR shop.'
                : 'One press and we stop sending you the DHR newsletter.'}
            </p>
            {action.isError && (
              <p role="alert" className="text-rose-200">
                {errorMessage(action.error, SHOP_MESSAGES.newsletterLinkInvalid)}
              </p>
            )}
            <Button size="lg" onClick={() => action.mutate(token)} disabled={action.isPending}>
              {mode === 'confirm' ? 'Confirm my subscription' : 'Unsubscribe'}
            </Button>
          </>
        )}
        <ButtonLink to="/shop" variant="ghost" size="sm">
          Back to the shop
        </ButtonLink>
      </Card>
    </PageContainer>
  );
}
