import { ACCESS_CHECK_FAILED, accessMessage, type MixAccessInfo } from '../../../../contracts/mix-values';
import { MIX_PLAY_TIER, type Permissions } from '../../../../contracts/tier-policy';
import { grantedTier, hasTierAccess } from '../../auth';

/** The mix page's access info from the server's permission flags (the server enforces the same rules). */
export function mixAccessInfo(p: Permissions | undefined, failed = false): MixAccessInfo {
  if (failed) return ACCESS_CHECK_FAILED;
  if (!p) return { ...ACCESS_CHECK_FAILED, message: '' };
  const canPlayMixes = p.authenticated && hasTierAccess(p, MIX_PLAY_TIER);
  const tier = grantedTier(p);
  return {
    canView: true,
    canPlay: canPlayMixes,
    canPlayMixes,
    canDownload: p.canDownload,
    remainingDownloads: p.remainingDownloads,
    subscriptionTier: tier,
    message: accessMessage({ authenticated: p.authenticated, tier, canDownload: p.canDownload, remainingDownloads: p.remainingDownloads }),
  };
}

/** '148 MB', '1.2 GB'. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}
