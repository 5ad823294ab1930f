/**
 * The home page's discussion id (a comment's `articleId`). Its own module because the app shell
 * needs only this: importing it from community-values.ts would pull every community message into the
 * first load.
 */
export const HOMEPAGE_DISCUSSION = 'homepage';
