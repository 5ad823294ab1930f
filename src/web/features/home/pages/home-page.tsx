import { lazy, Suspense, type ReactNode } from 'react';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { AdPlaceholder } from '../../../components/ui/ad-placeholder';
import { PageContainer } from '../../../components/ui/page-container';
import { cn } from '../../../lib/cn';
import { useAfterFirstPaint } from '../../../lib/use-after-first-paint';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { grantedBenefits, usePermissions } from '../../auth';
import { NewsTicker } from '../../news';
import { ConnectAndShare } from '../../community';
import { FeatureGrid } from '../components/feature-grid';
import { HeroSection } from '../components/hero-section';
import { LiveSection } from '../components/live-section';
import { MemberNotice } from '../components/member-notice';
import { NearScreenBlock } from '../components/near-screen-block';
import { PricingSection } from '../components/pricing-section';
import { StatsBlock } from '../components/stats-block';

// How to install the app and the closing call: far below the player, loaded as they come near the screen.
const InstallSection = lazy(() => import('../components/install-section').then((m) => ({ default: m.InstallSection })));
const ReadyCta = lazy(() => import('../components/ready-cta').then((m) => ({ default: m.ReadyCta })));

/**
 * The home page. The first render holds what a visitor sees first (the live player, then hero and figures);
 * the sections below render once the page has painted, each skipped by the browser's style and
 * layout work until it nears the screen (`below-fold`, styles.css).
 */
export default function HomePage() {
  useDocumentTitle();
  const { data } = usePermissions();
  const belowTheFold = useAfterFirstPaint();
  // Ad-free listening is a tier benefit (the tier table's adFree).
  const permissions = data ?? ANONYMOUS_PERMISSIONS;
  const showAds = !grantedBenefits(permissions).adFree;
  // The set-your-password notice is for visitors and members who still have no password.
  const showPasswordNotice = !permissions.hasPassword;
  return (
    <div className="space-y-12 pb-8 sm:space-y-16">
      {/* Play first: the player, the channel and what is playing, then the slogan and the figures. */}
      <LiveSection />
      <div className="space-y-10">
        <HeroSection />
        <StatsBlock />
        <NewsTicker />
      </div>
      {belowTheFold && (
        // Each block's padding stands in for the spacing between them (the -my pulls the first and
        // last back), so shadows and focus rings have room: the containment of `below-fold` clips.
        <div className="-my-10 sm:-my-12">
          {belowTheFoldBlocks(showAds, showPasswordNotice).map(({ key, size, className, content, nearScreen }) =>
            nearScreen ? (
              <NearScreenBlock key={key} id={key} className={cn('below-fold py-10 sm:py-12', size, className)}>
                <Suspense fallback={null}>{content}</Suspense>
              </NearScreenBlock>
            ) : (
              <div key={key} className={cn('below-fold py-10 sm:py-12', size, className)}>
                {content}
              </div>
            ),
          )}
        </div>
      )}
    </div>
  );
}

interface BelowFoldBlock {
  key: string;
  /** Its usual height on a phone and on a desktop: the stand-in until it has been laid out once. */
  size: string;
  className?: string;
  content: ReactNode;
  /** Rendered (and its lazy code loaded) only once it comes near the screen. */
  nearScreen?: boolean;
}

/** The home page below the fold, in order. */
function belowTheFoldBlocks(showAds: boolean, showPasswordNotice: boolean): BelowFoldBlock[] {
  const ad = (key: string, label: string): BelowFoldBlock => ({
    key,
    size: '[contain-intrinsic-size:auto_44px] lg:[contain-intrinsic-size:auto_90px]',
    content: (
      <PageContainer width="wide">
        <AdPlaceholder label={label} />
      </PageContainer>
    ),
  });
  return [
    ...(showAds ? [ad('ad-top', 'Advertisement')] : []),
    {
      key: 'membership',
      size: '[contain-intrinsic-size:auto_1706px] lg:[contain-intrinsic-size:auto_781px]',
      className: 'space-y-10',
      content: (
        <>
          {showPasswordNotice && <MemberNotice />}
          <PricingSection />
        </>
      ),
    },
    { key: 'features', size: '[contain-intrinsic-size:auto_1328px] lg:[contain-intrinsic-size:auto_635px]', content: <FeatureGrid /> },
    { key: 'install', size: '[contain-intrinsic-size:auto_795px] lg:[contain-intrinsic-size:auto_347px]', content: <InstallSection />, nearScreen: true },
    { key: 'connect', size: '[contain-intrinsic-size:auto_400px] lg:[contain-intrinsic-size:auto_300px]', content: <ConnectAndShare /> },
    { key: 'ready', size: '[contain-intrinsic-size:auto_432px] lg:[contain-intrinsic-size:auto_373px]', content: <ReadyCta />, nearScreen: true },
    ...(showAds ? [ad('ad-bottom', 'Advertisement, end of page')] : []),
  ];
}
