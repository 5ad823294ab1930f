import type { ReactNode } from 'react';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { AdPlaceholder } from '../../../components/ui/ad-placeholder';
import { PageContainer } from '../../../components/ui/page-container';
import { cn } from '../../../lib/cn';
import { useAfterFirstPaint } from '../../../lib/use-after-first-paint';
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

/**
 * The home page. The first render holds what a visitor sees first (hero, figures, the live player);
 * the sections below render once the page has painted, each skipped by the browser's style and
 * layout work until it nears the screen (`below-fold`, styles.css).
 */
export default function HomePage() {
  useDocumentTitle();
  const { data } = usePermissions();
  const belowTheFold = useAfterFirstPaint();
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
      {belowTheFold && (
        // Each section's padding stands in for the spacing between them (the -my pulls the first and
        // last back), so shadows and focus rings have room: the containment of `below-fold` clips.
        <div className="-my-10 sm:-my-12">
          {showAds && (
            <BelowFold size="[contain-intrinsic-size:auto_44px] lg:[contain-intrinsic-size:auto_90px]">
              <PageContainer width="wide">
                <AdPlaceholder />
              </PageContainer>
            </BelowFold>
          )}
          <BelowFold size="[contain-intrinsic-size:auto_1706px] lg:[contain-intrinsic-size:auto_781px]" className="space-y-10">
            <MemberNotice />
            <PricingSection />
          </BelowFold>
          <BelowFold size="[contain-intrinsic-size:auto_1328px] lg:[contain-intrinsic-size:auto_635px]">
            <FeatureGrid />
          </BelowFold>
          <BelowFold size="[contain-intrinsic-size:auto_795px] lg:[contain-intrinsic-size:auto_347px]">
            <InstallSection />
          </BelowFold>
          <BelowFold size="[contain-intrinsic-size:auto_400px] lg:[contain-intrinsic-size:auto_300px]">
            <ConnectAndShare />
          </BelowFold>
          <BelowFold size="[contain-intrinsic-size:auto_432px] lg:[contain-intrinsic-size:auto_373px]">
            <ReadyCta />
          </BelowFold>
          {showAds && (
            <BelowFold size="[contain-intrinsic-size:auto_44px] lg:[contain-intrinsic-size:auto_90px]">
              <PageContainer width="wide">
                <AdPlaceholder />
              </PageContainer>
            </BelowFold>
          )}
        </div>
      )}
    </div>
  );
}

/** A block below the fold; `size` is its usual height (phone, desktop), the stand-in until it has been laid out once. */
function BelowFold({ size, className, children }: { size: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn('below-fold py-10 sm:py-12', size, className)}>
      {children}
    </div>
  );
}
