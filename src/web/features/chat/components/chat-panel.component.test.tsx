/**
 * The channel chat as a member uses it: the messages, sending one, the server's refusals in its
 * own words, and messages arriving on the live event stream.
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CHAT_EVENT, CHAT_MESSAGES, type ChatEvent, type ChatMessageView } from '../../../../contracts/chat-values';
import { ANONYMOUS_PERMISSIONS, type Permissions } from '../../../../contracts/tier-policy';
import { formatDateTime } from '../../../lib/dates';
import { installFakeEventSource } from '../../../test-support/fake-event-source';
import { json, refusal, stubFetch, type FakeRequest } from '../../../test-support/fake-fetch';
import { advance, renderInApp } from '../../../test-support/render';
import type { ChatHistory } from '../api/get-chat';
import type { PostChatReply } from '../api/post-chat-message';
import ChatPanel from './chat-panel';

const MEMBER: Permissions = {
  ...ANONYMOUS_PERMISSIONS,
  authenticated: true,
  canAccessDHR1: true,
  canAutoSignInChat: true,
  subscriptionTier: 'dhr1',
  subscriptionStatus: 'active',
  userId: 'u-me',
  email: 'me@example.test',
  username: 'me',
};

let clock = Date.parse('2026-11-27T20:00:00Z');
function message(fields: Partial<ChatMessageView> & { id: string; text: string }): ChatMessageView {
  clock += 1000;
  return {
    channel: 'dhr1',
    userId: 'u-other',
    authorName: 'other',
    authorTier: 'dhr1',
    supporter: false,
    authorIsAdmin: false,
    held: false,
    createdAt: new Date(clock).toISOString(),
    ...fields,
  };
}

function history(messages: ChatMessageView[], fields: Partial<ChatHistory> = {}): ChatHistory {
  return { channel: 'dhr1', messages, canPost: true, canModerate: false, mutedUntil: null, ban: null, ...fields };
}

const HISTORY_PATH = 'GET /api/chat/dhr1/messages';
const POST_PATH = 'POST /api/chat/dhr1/messages';

async function renderChat(routes: Record<string, (req: FakeRequest) => Response | Promise<Response>>, me: Permissions = MEMBER) {
  const events = installFakeEventSource();
  const api = stubFetch({ 'GET /api/user/permissions': () => json(me), ...routes });
  renderInApp(<ChatPanel channel="dhr1" title="DHR1 Premium" />);
  await advance();
  return { api, events };
}

const shownTexts = () =>
  within(screen.getByRole('list', { name: 'Chat messages' }))
    .queryAllByTestId('chat-message')
    .map((li) => li.querySelector('p + p')?.textContent);
const input = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your message' });
const notice = () => screen.getByText((_, el) => el?.getAttribute('role') === 'status' && el.closest('form') !== null).textContent;

async function send(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.keyDown(input(), { key: 'Enter' });
  await advance();
}

describe('the chat panel', () => {
  it("shows the chat's messages as the server lists them (oldest first), and an invitation when there are none", async () => {
    const { api } = await renderChat({
      [HISTORY_PATH]: () => json(history([message({ id: 'm1', text: 'first!' }), message({ id: 'm2', text: 'what a tune', authorName: 'dj' })])),
    });
    expect(shownTexts()).toEqual(['first!', 'what a tune']);
    expect(screen.getByText('dj')).toBeTruthy();

    cleanup();
    api.route(HISTORY_PATH, () => json(history([])));
    renderInApp(<ChatPanel channel="dhr1" />);
    await advance();
    expect(screen.getByText(CHAT_MESSAGES.emptyList)).toBeTruthy();
  });

  it('sends the trimmed text with Enter, shows the message at once and empties the input', async () => {
    const earlier = message({ id: 'm1', text: 'first!' });
    const mine = message({ id: 'm-mine', text: 'hello all', userId: 'u-me', authorName: 'me' });
    const { api, events } = await renderChat({
      [HISTORY_PATH]: () => json(history([earlier])),
      [POST_PATH]: () => json({ message: mine, notice: '' } satisfies PostChatReply, 201),
    });
    events.current().open();
    await advance();

    await send('  hello all  ');
    expect(api.callsTo(POST_PATH).map((c) => c.body)).toEqual([{ text: 'hello all' }]);
    expect(shownTexts()).toEqual(['first!', 'hello all']);
    expect(input().value).toBe('');

    // The live event for the same message replaces it, never adds a second.
    events.current().emit(CHAT_EVENT, { channel: 'dhr1', kind: 'message', message: mine } satisfies ChatEvent);
    await advance();
    expect(shownTexts()).toEqual(['first!', 'hello all']);
  });

  it("shows the server's refusals in its own words and keeps the text to send again", async () => {
    const refusals = [
      refusal(429, 'slow_mode', CHAT_MESSAGES.slowMode(7)),
      refusal(429, 'rate_limited', 'Too many attempts. Please try again in 30 seconds.'),
      refusal(403, 'chat_tier_required', CHAT_MESSAGES.tierRequired),
      refusal(403, 'banned', `${CHAT_MESSAGES.banned} Reason: spam.`),
    ];
    const { api } = await renderChat({
      [HISTORY_PATH]: () => json(history([])),
      [POST_PATH]: () => refusals.shift() ?? json({}, 500),
    });

    await send('hello');
    expect(notice()).toBe(CHAT_MESSAGES.slowMode(7));
    expect(input().value).toBe('hello');
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await advance();
    expect(notice()).toBe('Too many attempts. Please try again in 30 seconds.');
    await send('hello');
    expect(notice()).toBe(CHAT_MESSAGES.tierRequired);
    await send('hello');
    expect(notice()).toBe(`${CHAT_MESSAGES.banned} Reason: spam.`);
    // Without the server's words: the panel's own.
    await send('hello');
    expect(notice()).toBe('Your message could not be sent. Please try again.');
    expect(api.callsTo(POST_PATH)).toHaveLength(5);
    expect(shownTexts()).toEqual([]);
  });

  it('reads the chat again after a mute refusal and says until when, without the input', async () => {
    const until = '2026-11-27T21:00:00.000Z';
    let muted = false;
    await renderChat({
      [HISTORY_PATH]: () => json(history([], { mutedUntil: muted ? until : null })),
      [POST_PATH]: () => {
        muted = true;
        return refusal(403, 'muted', CHAT_MESSAGES.muted(formatDateTime(until)), { until });
      },
    });
    await send('hello');
    expect(screen.getByText(CHAT_MESSAGES.muted(formatDateTime(until)), { selector: 'footer p' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Your message' })).toBeNull();
  });

  it("adds messages from the live stream, removes deleted ones, ignores other chats' and reads the list again after a reconnect", async () => {
    let served = [message({ id: 'm1', text: 'first!' })];
    const { api, events } = await renderChat({ [HISTORY_PATH]: () => json(history(served)) });
    events.current().open();
    await advance();
    const reads = api.callsTo(HISTORY_PATH).length;

    events.current().emit(CHAT_EVENT, { channel: 'dhr1', kind: 'message', message: message({ id: 'm2', text: 'live one' }) } satisfies ChatEvent);
    events
      .current()
      .emit(CHAT_EVENT, { channel: 'dhr2', kind: 'message', message: message({ id: 'x', text: 'elsewhere', channel: 'dhr2' }) } satisfies ChatEvent);
    await advance();
    expect(shownTexts()).toEqual(['first!', 'live one']);

    events.current().emit(CHAT_EVENT, { channel: 'dhr1', kind: 'delete', id: 'm1' } satisfies ChatEvent);
    await advance();
    expect(shownTexts()).toEqual(['live one']);
    expect(screen.getByText('Live')).toBeTruthy();

    // Dropped: what was said meanwhile is read when the stream is back.
    events.current().drop();
    await advance();
    expect(screen.getByText('Connecting')).toBeTruthy();
    served = [message({ id: 'm2', text: 'live one' }), message({ id: 'm3', text: 'said while away' })];
    events.current().open();
    await advance();
    expect(api.callsTo(HISTORY_PATH).length).toBe(reads + 1);
    expect(shownTexts()).toEqual(['live one', 'said while away']);
  });

  it('says a mute or a ban given while the chat is open before the member types (the standing event)', async () => {
    const until = new Date(Date.now() + 10 * 60_000).toISOString();
    let served = history([message({ id: 'm1', text: 'first!' })]);
    const { events } = await renderChat({ [HISTORY_PATH]: () => json(served) });
    events.current().open();
    await advance();
    expect(screen.getByRole('textbox', { name: 'Your message' })).toBeTruthy();

    served = history([message({ id: 'm1', text: 'first!' })], { mutedUntil: until });
    events.current().emit(CHAT_EVENT, { kind: 'standing' } satisfies ChatEvent);
    await advance();
    expect(screen.getByText(CHAT_MESSAGES.muted(formatDateTime(until)), { selector: 'footer p' })).toBeTruthy();

    served = history([message({ id: 'm1', text: 'first!' })], { ban: { reason: 'spam', until: null } });
    events.current().emit(CHAT_EVENT, { kind: 'standing' } satisfies ChatEvent);
    await advance();
    expect(screen.queryByRole('textbox', { name: 'Your message' })).toBeNull();
    expect(screen.getByText(CHAT_MESSAGES.banned, { exact: false })).toBeTruthy();
  });

  it('asks visitors to sign in, and members below the tier to upgrade', async () => {
    const { api } = await renderChat({ [HISTORY_PATH]: () => json(history([], { canPost: false })) }, ANONYMOUS_PERMISSIONS);
    expect(screen.getByRole('link', { name: CHAT_MESSAGES.signIn })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();

    cleanup();
    api.route('GET /api/user/permissions', () => json({ ...MEMBER, canAccessDHR1: false, subscriptionTier: 'free' }));
    renderInApp(<ChatPanel channel="dhr1" />);
    await advance();
    expect(screen.getAllByText((_, el) => el?.tagName === 'SPAN' && el.textContent === CHAT_MESSAGES.upgrade)).toHaveLength(1);
  });
});
