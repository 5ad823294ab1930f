// What other modules may use from the platforms domain.
export { platformEntitlementFor, reconcileUsers } from './repository';
export { mapEntitlement, type Entitlement } from './mapping';
export { platformsPlugin } from './platforms-plugin';
export { recentSyncRuns, platformConfigured, PLATFORM_LABELS } from './sync';
