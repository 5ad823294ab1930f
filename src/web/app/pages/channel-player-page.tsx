import { useParams } from 'react-router';
import { InvalidPlayer } from '../../components/ui/invalid-player';
import SectionPlaceholder from './section-placeholder';

/** /player/:channel — the dhr1 and dhr2 pop-out players; any other channel is invalid (spec §2). */
export default function ChannelPlayerPage() {
  const { channel = '' } = useParams();
  if (channel !== 'dhr1' && channel !== 'dhr2') return <InvalidPlayer channel={channel} />;
  return <SectionPlaceholder path="/player" />;
}
