import { PremiumChannelPage } from '../components/premium-channel-page';

/** /dhr1 (dhr1 and above). */
export default function Dhr1Page() {
  return <PremiumChannelPage channel="dhr1" />;
}
