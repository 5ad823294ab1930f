import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import type { CommentsSectionProps } from './comments-section-body';

export type { CommentsSectionProps };

// The list, the form and their schemas load when a section is first shown, never in a page's first load.
const Body = lazy(() => import('./comments-section-body'));

/**
 * A discussion's comments and the form to add one, usable inline under a
 * news item or forum thread as well as inside the dialog.
 */
export function CommentsSection(props: CommentsSectionProps) {
  return (
    <Suspense
      fallback={
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      }
    >
      <Body {...props} />
    </Suspense>
  );
}
