import { MessageCircle } from 'lucide-react';
import { useState } from 'react';
import { FREE_CHAT } from '../../../../contracts/chat-values';
import { ChannelChat } from './channel-chat';

/** The free stream's chat on the home page: opened on request, so `/` loads none of it first. */
export function HomeChat() {
  const [open, setOpen] = useState(false);
  if (open) return <ChannelChat channel={FREE_CHAT} className="h-[26rem]" />;
  return (
    <button
      type="button"
      onClick={() => setOpen(true)}
      className="glass flex min-h-11 w-full items-center justify-center gap-2 rounded-2xl px-4 py-3 text-sm font-semibold text-mist-100 transition hover:bg-white/10"
    >
      <MessageCircle className="size-4 text-aqua-300" aria-hidden="true" /> Open the live chat
    </button>
  );
}
