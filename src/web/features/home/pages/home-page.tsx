import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { AdPlaceholder } from '../../../components/ui/ad-placeholder';
import { PageContainer } from '../../../components/ui/page-container';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { usePermissions } from '../../auth';
import { NewsTicker } from '../../news';
import { ConnectAndShare } from '../../community';
import { FeatureGrid } from '../components/feature-grid';
import { HeroSection } from '../components/hero-section';
import { InstallSection } from '../components/install-section';
import { LiveSection } from '../components/live-section';
import { MemberNotice } from '../components/member-notice';
import { PricingSection } from '../components/pricing-section';
import { ReadyCta } from '../components/ready-cta';
import { StatsBlock } from '../components/stats-block';

/** The home page. */
export default function HomePage() {
  useDocumentTitle();
  const { data } = usePermissions();
  // Ad-free listening is a paid-tier benefit (DHR1 and up).
  const permissions = data ?? ANONYMOUS_PERMISSIONS;
  const showAds = !(permissions.canAccessDHR1 || permissions.isAdmin);
  return (
    <div className="space-y-20 pb-8 sm:space-y-24">
      <div className="space-y-10">
        <HeroSection />
        <StatsBlock />
        <NewsTicker />
      </div>
      <LiveSection />
      {showAds && (
        <PageContainer width="wide">
          <AdPlaceholder />
        </PageContainer>
      )}
      <div className="space-y-10">
        <MemberNotice />
        <PricingSection />
      </div>
      <FeatureGrid />
      <InstallSection />
      <ConnectAndShare />
      <ReadyCta />
      {showAds && (
        <PageContainer width="wide">
          <AdPlaceholder />
        </PageContainer>
      )}
    </div>
  );
}
