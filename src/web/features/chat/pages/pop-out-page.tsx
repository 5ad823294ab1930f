import { FREE_CHAT } from '../../../../contracts/chat-values';
import { PlayerPage } from '../../radio';
import { ChannelChat } from '../components/channel-chat';

/** The pop-out players (/player, /player/:channel) with the channel's chat under the player. */
export default function PopOutPage() {
  return <PlayerPage extra={({ free, channelId }) => <ChannelChat channel={free ? FREE_CHAT : channelId} className="mt-3 min-h-72 flex-1" />} />;
}
