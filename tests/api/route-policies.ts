/**
 * Every route the app registers, with its access policy, as reviewed. The route-policies test fails
 * when a route is added, removed or changes policy without this list changing with it: a route made
 * public by mistake shows up in review as a line here, not in production.
 *
 * Policies as `describePolicy` writes them: public | member | admin | tier:<tier> | admin|bearer:<VAR>.
 */
export const ROUTE_POLICIES: readonly (readonly [method: string, url: string, policy: string])[] = [
  ['GET', '/*', 'public'],
  ['POST', '/api/admin/assign-tier', 'admin'],
  ['POST', '/api/admin/bulk-import', 'admin'],
  ['GET', '/api/admin/download-stats', 'admin'],
  ['GET', '/api/admin/session-debug', 'admin'],
  ['POST', '/api/admin/setup', 'public'],
  ['GET', '/api/admin/setup-needed', 'public'],
  ['POST', '/api/admin/signin', 'public'],
  ['GET', '/api/admin/stats', 'admin'],
  ['GET', '/api/admin/storage-status', 'admin'],
  ['POST', '/api/admin/sync-subscriptions', 'admin'],
  ['GET', '/api/admin/system-status', 'admin'],
  ['DELETE', '/api/admin/track-history', 'admin'],
  ['GET', '/api/admin/track-history', 'admin'],
  ['GET', '/api/admin/users', 'admin'],
  ['GET', '/api/admin/vip-mixes', 'admin'],
  ['POST', '/api/admin/vip-mixes', 'admin'],
  ['PATCH', '/api/admin/vip-mixes/:id', 'admin'],
  ['DELETE', '/api/admin/vip-mixes/:id', 'admin'],
  ['POST', '/api/admin/users', 'admin'],
  ['PUT', '/api/admin/users/:id', 'admin'],
  ['POST', '/api/admin/users/:id/sessions/revoke', 'admin'],
  ['POST', '/api/auth/check-user-exists', 'public'],
  ['POST', '/api/auth/email-login-secure', 'public'],
  ['POST', '/api/auth/forgot-password', 'public'],
  ['POST', '/api/auth/logout', 'public'],
  ['POST', '/api/auth/magic', 'public'],
  ['POST', '/api/auth/magic/preview', 'public'],
  ['GET', '/api/auth/me', 'member'],
  ['POST', '/api/auth/register', 'public'],
  ['POST', '/api/auth/reset-password', 'public'],
  ['GET', '/api/auth/session-user', 'public'],
  ['POST', '/api/auth/set-password', 'public'],
  ['POST', '/api/auth/set-password/request-code', 'public'],
  ['POST', '/api/auth/set-password/verify-code', 'public'],
  ['POST', '/api/auth/simple-login', 'public'],
  ['POST', '/api/auth/verify-email', 'public'],
  ['GET', '/api/channels', 'public'],
  ['POST', '/api/download/:mixId', 'member'],
  ['GET', '/api/download-limits/:userId', 'member'],
  ['GET', '/api/file/:mixId', 'member'],
  ['GET', '/api/channels/:channel/stream', 'member'],
  ['GET', '/api/health', 'public'],
  ['GET', '/api/health/metadata', 'admin'],
  ['GET', '/api/live-metadata', 'public'],
  ['GET', '/api/live-metadata/:channel', 'public'],
  ['GET', '/api/live/events', 'public'],
  ['GET', '/api/site-config', 'public'],
  ['GET', '/api/stream/:mixId', 'member'],
  ['GET', '/api/track-monitor/current/:channel', 'public'],
  ['GET', '/api/tracks/recent/:channel', 'public'],
  ['POST', '/api/tracks/recommendations', 'tier:dhr1'],
  ['GET', '/api/user/permissions', 'public'],
  ['GET', '/api/vip/track-history', 'tier:vip'],
  ['GET', '/api/vip/mixes', 'public'],
  ['GET', '/api/vip-mixes', 'public'],
  ['PATCH', '/api/vip-mixes/:id', 'admin'],
  ['POST', '/api/stream-auth/listener', 'public'],
  ['POST', '/api/webhooks/buymeacoffee', 'public'],
  ['POST', '/api/webhooks/patreon', 'public'],
  ['GET', '/media/images/:name', 'public'],
  ['GET', '/media/mixes/:mixId/download', 'public'],
  ['GET', '/media/mixes/:mixId/stream', 'public'],
  ['GET', '/metrics', 'admin|bearer:METRICS_TOKEN'],
  // Community: comments, moderation (issue 12)
  ['GET', '/api/comments/recent', 'public'],
  ['GET', '/api/comments/recent/:limit', 'public'],
  ['GET', '/api/comments/:articleId', 'public'],
  ['POST', '/api/comments', 'member'],
  ['POST', '/api/comments/:id/report', 'member'],
  ['GET', '/api/admin/comments/reported', 'admin'],
  ['GET', '/api/admin/comments/pending', 'admin'],
  ['GET', '/api/admin/comments/log', 'admin'],
  ['PATCH', '/api/admin/comments/:id/approve', 'admin'],
  ['PATCH', '/api/admin/comments/:id/reject', 'admin'],
  ['DELETE', '/api/admin/comments/:id/permanent', 'admin'],
  ['POST', '/api/admin/users/:id/ban-comments', 'admin'],
  // Community: profiles, following, images, contact (issue 12)
  ['GET', '/api/users/:id/profile', 'public'],
  ['PATCH', '/api/users/:id/profile', 'member'],
  ['POST', '/api/users/:id/follow', 'member'],
  ['POST', '/api/users/:id/unfollow', 'member'],
  ['POST', '/api/users/upload-image', 'member'],
  ['POST', '/api/contact', 'public'],
  ['GET', '/api/admin/contact-messages', 'admin'],
  ['PATCH', '/api/admin/contact-messages/:id/handled', 'admin'],
];

/**
 * The `/api/admin/*` routes that are not admin-only, and why: they are how an admin gets a session
 * in the first place.
 */
export const ADMIN_PATH_EXCEPTIONS: readonly string[] = [
  'GET /api/admin/setup-needed', // the sign-in page asks whether to show first-admin setup
  'POST /api/admin/setup', // creates the first admin while there is none
  'POST /api/admin/signin', // the admin sign-in form
];
