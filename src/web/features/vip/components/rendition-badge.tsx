import { RotateCcw } from 'lucide-react';
import type { Rendition } from '../../../../contracts/mixes';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useRetryRendition } from '../api/retry-rendition';

const tones: Record<Rendition['state'], BadgeTone> = { queued: 'neutral', running: 'cyan', ready: 'green', failed: 'red' };

function label(r: Rendition): string {
  if (r.state === 'running') return `Listening copy: running ${r.percent} %`;
  return `Listening copy: ${r.state}`;
}

/**
 * The state of a mix's listening copy on /vip-admin (what DHR1 members stream): queued, running with
 * its percent, ready, or failed with the reason and a Retry button.
 */
export function RenditionBadge({ mixId, title, rendition }: { mixId: string; title: string; rendition: Rendition }) {
  const retry = useRetryRendition();
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-xs" data-testid="rendition">
      <Badge tone={tones[rendition.state]}>{label(rendition)}</Badge>
      {rendition.state === 'failed' && (
        <>
          {rendition.error && <span className="text-rose-300">{rendition.error}</span>}
          <Button
            size="sm"
            variant="secondary"
            onClick={() => retry.mutate(mixId)}
            disabled={retry.isPending}
            aria-label={`Retry the listening copy of ${title}`}
          >
            <RotateCcw className="size-4" aria-hidden="true" /> Retry
          </Button>
        </>
      )}
      {rendition.state === 'queued' && rendition.error && <span className="text-amber-300">Last attempt failed: {rendition.error}</span>}
      {retry.isError && <span className="text-rose-300">{errorMessage(retry.error, 'Retry failed')}</span>}
    </div>
  );
}
