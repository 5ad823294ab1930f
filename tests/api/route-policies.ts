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
  ['GET', '/api/admin/supporters/unmatched', 'admin'],
  ['POST', '/api/admin/supporters/link', 'admin'],
  ['POST', '/api/admin/supporters/invite', 'admin'],
  ['GET', '/api/admin/sync-runs', 'admin'],
  ['GET', '/api/admin/sync-runs/:id', 'admin'],
  ['GET', '/api/admin/users/:id/platform-records', 'admin'],
  ['GET', '/api/supporters/links', 'member'],
  ['POST', '/api/supporters/patreon/authorize', 'member'],
  ['POST', '/api/supporters/patreon/callback', 'member'],
  ['DELETE', '/api/supporters/patreon', 'member'],
  ['POST', '/api/supporters/claims', 'member'],
  ['POST', '/api/supporters/claims/confirm', 'member'],
  ['POST', '/api/supporters/claims/remove', 'member'],
  ['DELETE', '/api/admin/track-history', 'admin'],
  ['GET', '/api/admin/track-history', 'admin'],
  ['GET', '/api/admin/users', 'admin'],
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
  ['GET', '/api/channels/:channel/stream', 'member'],
  ['GET', '/api/health', 'public'],
  ['GET', '/api/health/metadata', 'admin'],
  ['GET', '/api/live-metadata', 'public'],
  ['GET', '/api/live-metadata/:channel', 'public'],
  ['GET', '/api/live/events', 'public'],
  ['GET', '/api/site-config', 'public'],
  ['GET', '/api/track-monitor/current/:channel', 'public'],
  ['GET', '/api/tracks/recent/:channel', 'public'],
  ['POST', '/api/tracks/recommendations', 'tier:dhr1'],
  ['GET', '/api/user/permissions', 'public'],
  ['GET', '/api/vip/track-history', 'tier:vip'],
  ['POST', '/api/stream-auth/listener', 'public'],
  ['POST', '/api/webhooks/buymeacoffee', 'public'],
  ['POST', '/api/webhooks/patreon', 'public'],
  ['GET', '/metrics', 'admin|bearer:METRICS_TOKEN'],
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
