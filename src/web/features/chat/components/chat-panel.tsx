import { useQueryClient } from '@tanstack/react-query';
import { Crown, LogIn, MessageCircle, MoreVertical, Send, ShieldCheck, Sparkles } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CHAT_MAX_LENGTH, CHAT_MESSAGES, type ChatMessageView, FREE_CHAT } from '../../../../contracts/chat-values';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { TierBadge } from '../../../components/ui/badge';
import { ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDateTime, formatTime } from '../../../lib/dates';
import { ApiError, errorMessage } from '../../../lib/http';
import { usePopover } from '../../../lib/use-popover';
import { usePermissions } from '../../auth';
import { useLiveEventsConnected } from '../../radio';
import { type ChatHistory, useChat } from '../api/get-chat';
import { chatKeys } from '../api/keys';
import { useApproveChatMessage, useDeleteChatMessage, useMuteChatMember } from '../api/moderate-chat';
import { usePostChatMessage } from '../api/post-chat-message';
import { useChatStream, withMessage } from '../hooks/use-chat-stream';
import { BanDialog, BannedNotice } from './chat-ban';

export interface ChatPanelProps {
  /** 'free' or a channel id. */
  channel: string;
  /** Shown in the header: 'DHR1 Premium'. */
  title?: string;
  className?: string;
}

/** Mutes a moderator may give from a message's menu, in minutes. */
const MUTES = [
  { minutes: 10, label: 'Mute 10 minutes' },
  { minutes: 60, label: 'Mute 1 hour' },
  { minutes: 24 * 60, label: 'Mute 1 day' },
] as const;

/** The channel chat beside a player: messages as they arrive, and the input for those who may post. */
export default function ChatPanel({ channel, title, className }: ChatPanelProps) {
  const { data } = usePermissions();
  const me = data ?? ANONYMOUS_PERMISSIONS;
  useChatStream(channel, data ? (me.userId ?? 'visitor') : undefined);
  const chat = useChat(channel);
  const connected = useLiveEventsConnected();
  const listRef = useRef<HTMLOListElement>(null);
  const nearBottom = useRef(true);
  const messages = chat.data?.messages ?? [];
  const lastId = messages.at(-1)?.id;

  // Opens at the newest message, then follows new ones while the reader is at the bottom; leaves them
  // where they are when scrolled up.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el && nearBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages.length, lastId, chat.isPending]);

  const label = title ?? (channel === FREE_CHAT ? 'Free Stream' : channel.toUpperCase());
  return (
    <section aria-label={`${label} chat`} className={cn('glass flex min-h-0 flex-col overflow-hidden rounded-3xl', className)} data-testid="chat-panel">
      <header className="flex items-center gap-2 border-b border-white/5 px-4 py-3">
        <MessageCircle className="size-4 shrink-0 text-aqua-300" aria-hidden="true" />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold text-white">
          Live chat <span className="font-normal text-mist-400">· {label}</span>
        </h2>
        <span className="flex items-center gap-1.5 text-xs text-mist-400" title={connected ? 'Messages arrive live' : 'Reconnecting'}>
          <span className={cn('size-2 rounded-full', connected ? 'bg-emerald-400 shadow-[0_0_8px] shadow-emerald-400/70' : 'bg-mist-500')} aria-hidden="true" />
          {connected ? 'Live' : 'Connecting'}
        </span>
      </header>

      <ol
        ref={listRef}
        onScroll={(e) => {
          const el = e.currentTarget;
          nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
        }}
        // Bounded: a long history scrolls inside the panel, and the message box stays in view.
        className="max-h-[min(24rem,55dvh)] min-h-0 flex-1 space-y-1 overflow-x-hidden overflow-y-auto px-2 py-2 overscroll-contain"
        aria-label="Chat messages"
        aria-live="polite"
        aria-relevant="additions"
      >
        {chat.isPending ? (
          <li className="flex justify-center py-8">
            <Spinner />
          </li>
        ) : chat.isError ? (
          <li className="px-1 py-6">
            <LoadError
              what="the chat"
              detail={errorMessage(chat.error, '') || undefined}
              onRetry={() => void chat.refetch()}
              retrying={chat.isFetching}
              compact
            />
          </li>
        ) : messages.length === 0 ? (
          <li className="px-3 py-8 text-center text-sm text-mist-400">{CHAT_MESSAGES.emptyList}</li>
        ) : (
          messages.map((m) => <ChatLine key={m.id} message={m} channel={channel} moderator={chat.data?.canModerate === true} myId={me.userId} />)
        )}
      </ol>

      <footer className="border-t border-white/5 p-3">
        {!me.authenticated ? (
          <ButtonLink to="/auth" size="md" variant="secondary" className="w-full">
            <LogIn className="size-4" aria-hidden="true" /> {CHAT_MESSAGES.signIn}
          </ButtonLink>
        ) : chat.data?.ban ? (
          <BannedNotice ban={chat.data.ban} />
        ) : chat.data && !chat.data.canPost ? (
          <p className="flex min-h-11 items-center justify-center gap-2 rounded-2xl bg-amber-500/5 px-3 py-2 text-center text-sm text-amber-100 ring-1 ring-amber-400/20">
            <Sparkles className="size-4 shrink-0 text-amber-300" aria-hidden="true" />
            <span>
              {CHAT_MESSAGES.upgrade.replace(/upgrade$/, '')}
              <Link to="/auth" className="font-semibold text-amber-200 underline underline-offset-2 hover:text-white">
                upgrade
              </Link>
            </span>
          </p>
        ) : chat.data ? (
          <ChatInput channel={channel} mutedUntil={chat.data.mutedUntil} />
        ) : null}
      </footer>
    </section>
  );
}

function ChatLine({ message: m, channel, moderator, myId }: { message: ChatMessageView; channel: string; moderator: boolean; myId: string | null }) {
  return (
    <li
      className={cn('group relative flex gap-1 rounded-xl px-2 py-1.5 hover:bg-white/[0.03]', m.held && 'bg-amber-500/5 ring-1 ring-amber-400/15')}
      data-testid="chat-message"
    >
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs">
          <span dir="auto" className={cn('max-w-[12rem] truncate font-semibold', m.userId === myId ? 'text-aqua-300' : 'text-white')}>
            {m.authorName}
          </span>
          {m.authorIsAdmin ? (
            <span className="inline-flex items-center gap-0.5 rounded-full bg-rose-500/15 px-1.5 py-px text-[0.65rem] font-semibold text-rose-200 ring-1 ring-rose-400/30">
              <ShieldCheck className="size-3" aria-hidden="true" /> Mod
            </span>
          ) : (
            <TierBadge tier={m.authorTier} className="px-1.5 py-px text-[0.65rem]" />
          )}
          {m.supporter && (
            <span className="inline-flex items-center gap-0.5 rounded-full bg-gradient-to-r from-amber-400/20 to-fuchsia-500/20 px-1.5 py-px text-[0.65rem] font-semibold text-amber-200 ring-1 ring-amber-300/30">
              <Crown className="size-3" aria-hidden="true" /> Supporter
            </span>
          )}
          <time dateTime={m.createdAt} title={formatDateTime(m.createdAt)} className="text-mist-500 tabular-nums">
            {formatTime(m.createdAt)}
          </time>
        </p>
        {/* dir="auto": Arabic or Hebrew messages run right to left, each by its own first strong letter. */}
        <p dir="auto" className="mt-0.5 text-sm leading-snug break-words whitespace-pre-wrap text-mist-100 [overflow-wrap:anywhere]">
          {m.text}
        </p>
        {m.held && <p className="mt-0.5 text-[0.7rem] text-amber-300">Waiting for a moderator</p>}
      </div>
      {moderator && <ModeratorMenu message={m} channel={channel} />}
    </li>
  );
}

function ModeratorMenu({ message: m, channel }: { message: ChatMessageView; channel: string }) {
  const { open, setOpen, ref } = usePopover();
  const [note, setNote] = useState('');
  const qc = useQueryClient();
  const remove = useDeleteChatMessage();
  const approve = useApproveChatMessage();
  const mute = useMuteChatMember();

  const done = (message: string) => {
    setNote(message);
    setOpen(false);
  };
  const fail = (err: unknown) => done(errorMessage(err, 'That did not work. Please try again.'));
  const onDelete = () =>
    remove.mutate(m.id, {
      onSuccess: () => {
        qc.setQueryData<ChatHistory>(chatKeys.history(channel), (old) => old && { ...old, messages: old.messages.filter((x) => x.id !== m.id) });
        setOpen(false);
      },
      onError: fail,
    });
  const onApprove = () =>
    approve.mutate(m.id, {
      onSuccess: (r) => {
        qc.setQueryData<ChatHistory>(chatKeys.history(channel), (old) => old && { ...old, messages: withMessage(old.messages, { ...m, held: false }) });
        done(r.message);
      },
      onError: fail,
    });
  const [banning, setBanning] = useState(false);

  const item =
    'flex min-h-11 w-full items-center rounded-xl px-3 text-left text-sm text-mist-100 hover:bg-white/10 focus-visible:bg-white/10 focus-visible:outline-none';
  return (
    <div ref={ref} className="relative shrink-0">
      <button
        type="button"
        aria-label={`Moderate the message of ${m.authorName}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        className="flex size-11 items-center justify-center rounded-full text-mist-400 transition hover:bg-white/10 hover:text-white"
      >
        <MoreVertical className="size-4" aria-hidden="true" />
      </button>
      {open && (
        <div role="menu" className="absolute top-10 right-0 z-20 w-52 rounded-2xl border border-white/10 bg-night-900/95 p-1 shadow-xl backdrop-blur">
          {m.held && (
            <button type="button" role="menuitem" className={item} onClick={onApprove}>
              Approve
            </button>
          )}
          <button type="button" role="menuitem" className={cn(item, 'text-rose-200')} onClick={onDelete}>
            Delete message
          </button>
          {m.userId &&
            !m.authorIsAdmin &&
            MUTES.map((x) => (
              <button
                key={x.minutes}
                type="button"
                role="menuitem"
                className={item}
                onClick={() => mute.mutate({ userId: m.userId ?? '', minutes: x.minutes }, { onSuccess: (r) => done(r.message), onError: fail })}
              >
                {x.label}
              </button>
            ))}
          {m.userId && !m.authorIsAdmin && (
            <button
              type="button"
              role="menuitem"
              className={cn(item, 'text-rose-200')}
              onClick={() => {
                setOpen(false);
                setBanning(true);
              }}
            >
              Ban from comments and chat
            </button>
          )}
        </div>
      )}
      {banning && m.userId && <BanDialog name={m.authorName} userId={m.userId} onClose={() => setBanning(false)} onBanned={done} />}
      {note && (
        <p role="status" className="absolute top-10 right-0 z-10 w-52 rounded-xl bg-night-900/95 text-xs text-mist-200 ring-1 ring-white/10">
          {/* A button, so the note is dismissed by keyboard as well as by a click. */}
          <button type="button" className="w-full rounded-xl px-3 py-2 text-left" onClick={() => setNote('')}>
            {note}
          </button>
        </p>
      )}
    </div>
  );
}

function ChatInput({ channel, mutedUntil }: { channel: string; mutedUntil: string | null }) {
  const qc = useQueryClient();
  const post = usePostChatMessage();
  const [text, setText] = useState('');
  const [notice, setNotice] = useState('');
  // The server answers mutedUntil only while the mute runs; at its end the chat is read again.
  useEffect(() => {
    if (mutedUntil === null) return;
    const timer = setTimeout(
      () => void qc.invalidateQueries({ queryKey: chatKeys.history(channel) }),
      Math.max(0, new Date(mutedUntil).getTime() - Date.now()) + 500,
    );
    return () => clearTimeout(timer);
  }, [mutedUntil, qc, channel]);
  const length = [...text.trim()].length;
  const tooLong = length > CHAT_MAX_LENGTH;
  const stillMuted = mutedUntil !== null;
  const canSend = length > 0 && !tooLong && !post.isPending && !stillMuted;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    post.mutate(
      { channel, text: text.trim() },
      {
        onSuccess: (r) => {
          setText('');
          setNotice(r.notice);
          // Shown at once; the live event for the same id replaces it, never adds a second.
          qc.setQueryData<ChatHistory>(chatKeys.history(channel), (old) => old && { ...old, messages: withMessage(old.messages, r.message) });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'muted') void qc.invalidateQueries({ queryKey: chatKeys.history(channel) });
          setNotice(errorMessage(err, 'Your message could not be sent. Please try again.'));
        },
      },
    );
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  if (stillMuted) {
    return (
      <p
        role="status"
        className="flex min-h-11 items-center justify-center rounded-2xl bg-rose-500/5 px-3 py-2 text-center text-sm text-rose-200 ring-1 ring-rose-400/20"
      >
        {CHAT_MESSAGES.muted(formatDateTime(mutedUntil))}
      </p>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-1.5">
      <div className="flex items-end gap-2">
        <label htmlFor={`chat-input-${channel}`} className="sr-only">
          Your message
        </label>
        <textarea
          id={`chat-input-${channel}`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          maxLength={CHAT_MAX_LENGTH * 2}
          placeholder="Say something nice..."
          className="max-h-28 min-h-11 min-w-0 flex-1 resize-none rounded-2xl border border-white/10 bg-night-900/80 px-3.5 py-2.5 text-sm text-white [field-sizing:content] placeholder:text-mist-500 focus:border-aqua-400/50 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none"
        />
        <button
          type="submit"
          disabled={!canSend}
          aria-label="Send message"
          className="flex size-11 shrink-0 items-center justify-center rounded-full bg-gradient-to-r from-deep-600 via-violet-500 to-aqua-500 text-white transition hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-40"
        >
          {post.isPending ? <Spinner className="size-4" /> : <Send className="size-4" aria-hidden="true" />}
        </button>
      </div>
      <div className="flex items-center justify-between gap-2 px-1 text-xs">
        <span role="status" className="min-w-0 text-mist-300">
          {notice}
        </span>
        <span className={cn('shrink-0 tabular-nums', tooLong ? 'font-semibold text-rose-300' : 'text-mist-500')}>
          {length}/{CHAT_MAX_LENGTH}
        </span>
      </div>
    </form>
  );
}
