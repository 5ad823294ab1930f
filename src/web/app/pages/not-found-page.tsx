import { Compass } from 'lucide-react';
import { ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PageContainer } from '../../components/ui/page-container';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <PageContainer width="narrow" className="py-16 sm:py-24">
      <Card padding="lg" className="animate-fade-up text-center">
        <div className="mx-auto mb-6 flex size-16 items-center justify-center rounded-2xl bg-white/5 text-aqua-300 ring-1 ring-white/10">
          <Compass className="size-8" aria-hidden="true" />
        </div>
        <p className="text-sm font-semibold tracking-[0.3em] text-mist-500">404</p>
        <h1 className="mt-2 font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">Page Not Found</h1>
        <p className="mx-auto mt-4 max-w-md text-base leading-relaxed text-mist-300">
          This page drifted off the dancefloor. The music is still playing on the home page.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <ButtonLink to="/">Back to Home</ButtonLink>
          <ButtonLink to="/forum" variant="secondary">
            Visit the Forum
          </ButtonLink>
        </div>
      </Card>
    </PageContainer>
  );
}
