import { Mail, MessageCircle } from 'lucide-react';
import { Suspense, useState } from 'react';
import { HOMEPAGE_DISCUSSION } from '../../../../contracts/discussions';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { CommentsDialog, ContactDialog } from './lazy-dialogs';

const tile = 'group glass flex w-full items-center gap-4 rounded-3xl p-5 text-left transition hover:border-white/20 hover:bg-white/[0.06] sm:p-6';

/** The home page's 'Connect and Share' row: the home discussion's comments and the contact form. */
export function ConnectAndShare() {
  const [open, setOpen] = useState<'comments' | 'contact' | null>(null);
  const close = (next: boolean) => !next && setOpen(null);
  return (
    <section aria-labelledby="connect-heading">
      <PageContainer width="wide" className="space-y-8">
        <SectionHeading
          id="connect-heading"
          eyebrow="Community"
          title="Connect and Share"
          description="Tell us what moved you on the floor tonight, or get in touch with the team."
          align="center"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <button type="button" className={tile} onClick={() => setOpen('comments')} aria-haspopup="dialog">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-deep-500/40 to-aqua-500/30 text-aqua-200 transition group-hover:scale-105">
              <MessageCircle className="size-6" aria-hidden />
            </span>
            <span>
              <span className="block font-display text-lg font-semibold text-white">Community Comments</span>
              <span className="block text-sm text-mist-300">Join the conversation with fellow listeners</span>
            </span>
          </button>
          <button type="button" className={tile} onClick={() => setOpen('contact')} aria-haspopup="dialog">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-fuchsia-500/30 to-deep-500/40 text-fuchsia-200 transition group-hover:scale-105">
              <Mail className="size-6" aria-hidden />
            </span>
            <span>
              <span className="block font-display text-lg font-semibold text-white">Contact Us</span>
              <span className="block text-sm text-mist-300">Requests, feedback and support</span>
            </span>
          </button>
        </div>
      </PageContainer>
      <Suspense fallback={null}>
        {open === 'comments' && <CommentsDialog open onOpenChange={close} discussionId={HOMEPAGE_DISCUSSION} />}
        {open === 'contact' && <ContactDialog open onOpenChange={close} />}
      </Suspense>
    </section>
  );
}
