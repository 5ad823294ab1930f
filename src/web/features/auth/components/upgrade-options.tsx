import { Coffee, Heart } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button';
import { useSiteConfig } from '../api/get-site-config';

/** Payments apply as they arrive (the platforms' webhooks), not at the next sign-in. */
export const UPGRADE_APPLIES_AT_ONCE = 'Use the same email as your DHR account: the upgrade applies as soon as the payment goes through.';

/** The two platform buttons of the upgrade screens (Patreon and Buy Me a Coffee). */
export function UpgradeOptions({ stacked = false }: { stacked?: boolean }) {
  const { data } = useSiteConfig();
  if (!data) return null;
  return (
    <div className={stacked ? 'flex flex-col gap-3' : 'flex flex-col justify-center gap-3 sm:flex-row'}>
      <ButtonLink href={data.patreonPageUrl}>
        <Heart className="size-4" /> Upgrade on Patreon
      </ButtonLink>
      <ButtonLink href={data.bmcPageUrl} variant="secondary">
        <Coffee className="size-4" /> Support via Buy Me a Coffee
      </ButtonLink>
    </div>
  );
}
