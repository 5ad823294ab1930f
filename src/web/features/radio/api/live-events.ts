import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { LiveMetadata, NowPlayingEvent } from '../../../../contracts/radio';
import { NOW_PLAYING_EVENT } from '../../../../contracts/radio-values';

export const LIVE_EVENTS_PATH = '/api/live/events';
/** After the browser's own reconnects give up (stream closed), try again this much later. */
const REOPEN_MS = 30_000;

/**
 * One EventSource per page, shared by every widget that shows now-playing: each `now-playing`
 * event is written into the TanStack Query cache, so all widgets read one source of truth.
 */
class LiveEvents {
  private source: EventSource | undefined;
  private users = 0;
  private client: QueryClient | undefined;
  private reopenTimer: ReturnType<typeof setTimeout> | undefined;
  private connected = false;
  private readonly listeners = new Set<() => void>();
  private readonly handlers = new Set<(event: { channel: string; data: LiveMetadata | null }) => void>();
  /** Other features' events on the same stream (the chat's `chat`), by event name: raw data. */
  private readonly named = new Map<string, Set<(data: string) => void>>();
  /** Who the stream was opened for: the server picks a stream's audiences (its chats) when it connects. */
  private audienceKey: string | undefined;

  acquire(client: QueryClient): () => void {
    this.client = client;
    this.users += 1;
    if (this.users === 1) this.open();
    return () => {
      this.users -= 1;
      if (this.users === 0) this.close();
    };
  }

  /** Extra per-event callbacks (e.g. invalidating the track monitor of that channel). */
  onEvent(handler: (event: { channel: string; data: LiveMetadata | null }) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Calls `handler` with the data of each `name` event on the shared stream. */
  onNamedEvent(name: string, handler: (data: string) => void): () => void {
    let set = this.named.get(name);
    if (!set) {
      set = new Set();
      this.named.set(name, set);
      this.source?.addEventListener(name, this.dispatch);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  private readonly dispatch = (e: Event) => {
    const { type, data } = e as MessageEvent<string>;
    for (const h of this.named.get(type) ?? []) h(data);
  };

  /**
   * Reopens the stream when the signed-in member changed since it was opened (`key`: who is signed
   * in now), so that it joins the audiences of the new session.
   */
  openFor(key: string): void {
    const before = this.audienceKey;
    this.audienceKey = key;
    if (before === undefined || before === key || !this.source) return;
    this.source.close();
    this.source = undefined;
    this.setConnected(false);
    this.open();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  isConnected = (): boolean => this.connected;

  private setConnected(value: boolean) {
    if (this.connected === value) return;
    this.connected = value;
    for (const l of this.listeners) l();
  }

  private open() {
    if (typeof EventSource === 'undefined') return; // polling carries on alone
    clearTimeout(this.reopenTimer);
    const source = new EventSource(LIVE_EVENTS_PATH);
    this.source = source;
    source.onopen = () => this.setConnected(true);
    for (const name of this.named.keys()) source.addEventListener(name, this.dispatch);
    source.onerror = () => {
      this.setConnected(false);
      // CONNECTING: the browser retries by itself (sending Last-Event-ID). CLOSED: it gave up.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        this.source = undefined;
        this.reopenTimer = setTimeout(() => {
          if (this.users > 0) this.open();
        }, REOPEN_MS);
      }
    };
    source.addEventListener(NOW_PLAYING_EVENT, (e) => {
      let event: NowPlayingEvent;
      try {
        event = JSON.parse((e as MessageEvent<string>).data) as NowPlayingEvent;
      } catch {
        return;
      }
      const { channel, online, ...meta } = event;
      if (typeof channel !== 'string') return;
      const data = online && meta.artist?.trim() && meta.title?.trim() ? meta : null;
      this.client?.setQueryData(['live-metadata', channel], data);
      for (const h of this.handlers) h({ channel, data });
    });
  }

  private close() {
    clearTimeout(this.reopenTimer);
    this.source?.close();
    this.source = undefined;
    this.setConnected(false);
  }
}

export const liveEvents = new LiveEvents();

/** Keeps the shared event stream open while the calling component is mounted. */
export function useLiveEvents(): void {
  const client = useQueryClient();
  useEffect(() => liveEvents.acquire(client), [client]);
}

/** Whether pushed updates are flowing; polling takes over while they are not. */
export function useLiveEventsConnected(): boolean {
  useLiveEvents();
  return useSyncExternalStore(liveEvents.subscribe, liveEvents.isConnected, () => false);
}

/** Calls `handler` with each `name` event's data while the calling component is mounted (the stream stays open). */
export function useLiveEvent(name: string, handler: (data: string) => void): void {
  useLiveEvents();
  useEffect(() => liveEvents.onNamedEvent(name, handler), [name, handler]);
}

/** Keeps the stream's audiences those of `key` (who is signed in): reopens it once when it changes. */
export function useLiveAudience(key: string | undefined): void {
  useEffect(() => {
    if (key !== undefined) liveEvents.openFor(key);
  }, [key]);
}
