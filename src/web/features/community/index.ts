import { lazy } from 'react';

// The community feature's public surface: other features and the app shell import only from here.
export { CommentsSection, type CommentsSectionProps } from './components/comments-section';
export { CommentsToggle } from './components/comments-toggle';
export { ConnectAndShare } from './components/connect-and-share';
export { MemberProfileButton } from './components/member-profile-button';
export { useRecentComments, recentCommentsQueryOptions } from './api/get-recent-comments';

/** The comments of one discussion in a modal; loads on first render (wrap it in Suspense). */
export const CommentsDialog = lazy(() => import('./components/comments-dialog'));
/** A member's profile in a modal; loads on first render (wrap it in Suspense). */
export const ProfileDialog = lazy(() => import('./components/profile-dialog'));
