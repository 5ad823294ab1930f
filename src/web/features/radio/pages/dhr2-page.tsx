import { PremiumChannelPage } from '../components/premium-channel-page';

/** /dhr2 (dhr2 and above). */
export default function Dhr2Page() {
  return <PremiumChannelPage channel="dhr2" />;
}
