import { RefreshCw } from 'lucide-react';
import { Button, ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PageContainer } from '../../components/ui/page-container';

/** Shown when a page fails to load or render (for example a stale chunk after a deploy). */
export function RouteErrorPage({ error }: { error: unknown }) {
  const chunkFailed = error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message);
  return (
    <PageContainer width="narrow" className="py-16 sm:py-24">
      <Card padding="lg" className="text-center">
        <h1 className="font-display text-2xl font-bold text-white sm:text-3xl">Something went wrong</h1>
        <p className="mx-auto mt-4 max-w-md text-mist-300">
          {chunkFailed
            ? 'A new version of Deep House Radio is available. Reload the page to continue.'
            : 'This page could not be shown. Reload to try again, or head back home.'}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button onClick={() => window.location.reload()}>
            <RefreshCw className="size-4" aria-hidden="true" /> Reload
          </Button>
          <ButtonLink to="/" variant="secondary">
            Back to Home
          </ButtonLink>
        </div>
      </Card>
    </PageContainer>
  );
}
