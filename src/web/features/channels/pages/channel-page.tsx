import { Home } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { accessForTier } from '../../../../contracts/access-policy';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { PageSpinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useChannel } from '../../radio';

// The player and the track widgets load once the gate lets the member in: a visitor who is asked to
// sign in or upgrade does not download them (docs/decisions/0022-first-load-of-gated-and-data-pages.md).
const ChannelContent = lazy(() => import('../components/channel-content'));

/**
 * /dhr1 and /dhr2: the members' channel pages, radio's player with tracks' widgets. Each is gated
 * by the tier the channel itself requires (GET /api/channels), the rule its stream follows too.
 */
export default function ChannelPage() {
  const id = useLocation().pathname.replace(/^\/+|\/+$/g, '');
  const { data: channel, isPending } = useChannel(id);
  useDocumentTitle(channel?.name ?? id.toUpperCase());
  if (isPending) return <PageSpinner label="Loading channel..." />;
  if (!channel) return <ChannelUnavailable />;
  return (
    <AccessGate policy={accessForTier(channel.requiredTier)}>
      <Suspense fallback={<PageSpinner label="Loading channel..." />}>
        <ChannelContent channel={channel} />
      </Suspense>
    </AccessGate>
  );
}

function ChannelUnavailable() {
  return (
    <PageContainer className="py-16 text-center">
      <h1 className="font-display text-3xl font-bold text-white">Channel unavailable</h1>
      <p className="mt-3 text-mist-300">This channel is not on the station's list right now.</p>
      <ButtonLink to="/" variant="secondary" className="mt-6">
        <Home className="size-4" aria-hidden="true" /> Return Home
      </ButtonLink>
    </PageContainer>
  );
}
