import { lazy, Suspense } from 'react';
import { cn } from '../../../lib/cn';
import type { ChatPanelProps } from './chat-panel';

// The panel, its fetchers and its words load with the player, never with a page's first load.
const ChatPanel = lazy(() => import('./chat-panel'));

/** The chat beside a player: a placeholder of the same size while the panel loads. */
export function ChannelChat(props: ChatPanelProps) {
  return (
    <Suspense fallback={<div className={cn('glass rounded-3xl', props.className)} aria-hidden="true" />}>
      <ChatPanel {...props} />
    </Suspense>
  );
}
