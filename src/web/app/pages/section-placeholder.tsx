import { Crown, Headphones, LayoutDashboard, MessagesSquare, ShoppingBag, UserRound } from 'lucide-react';
import type { AccessPolicy } from '../../../contracts/access-policy';
import { ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PageContainer } from '../../components/ui/page-container';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AccessGate } from '../../features/auth';
import { SECTIONS, type SectionPath } from './sections';

const icons = {
  account: UserRound,
  radio: Headphones,
  vip: Crown,
  community: MessagesSquare,
  shop: ShoppingBag,
  admin: LayoutDashboard,
} as const;

/** A section's title and purpose, until its page is plugged into the router. */
export default function SectionPlaceholder({ path, policy }: { path: SectionPath; policy: AccessPolicy }) {
  const section = SECTIONS[path];
  useDocumentTitle(section.title);
  const Icon = icons[section.area];
  return (
    <AccessGate policy={policy}>
      <PageContainer width="narrow" className="py-16 sm:py-24">
      <Card padding="lg" className="animate-fade-up text-center">
        <div className="mx-auto mb-6 flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-deep-500/30 to-aqua-500/20 text-deep-300 ring-1 ring-white/10">
          <Icon className="size-8" aria-hidden="true" />
        </div>
        <h1 className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">{section.title}</h1>
        <p className="mx-auto mt-4 max-w-md text-base leading-relaxed text-mist-300">{section.text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <ButtonLink to="/" variant="secondary">
            Back to Home
          </ButtonLink>
        </div>
      </Card>
      </PageContainer>
    </AccessGate>
  );
}
