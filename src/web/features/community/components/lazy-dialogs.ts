import { lazy } from 'react';

/** The community's dialogs, each loaded on its first render (wrap them in Suspense). */
export const CommentsDialog = lazy(() => import('./comments-dialog'));
export const ContactDialog = lazy(() => import('./contact-dialog'));
export const ProfileDialog = lazy(() => import('./profile-dialog'));
