/**
 * An EventSource the test drives (happy-dom has none): `open()`, `emit(event, data)`, `drop()`.
 * `installFakeEventSource()` puts it in place of the global for one test.
 */
import { vi } from 'vitest';

export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every stream the page opened, in order. */
  static opened: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;

  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server accepted the stream. */
  open(): void {
    this.readyState = FakeEventSource.OPEN;
    const e = new Event('open');
    this.onopen?.(e);
    this.dispatchEvent(e);
  }

  /** One server-sent event; objects are sent as JSON like the server's. */
  emit(event: string, data: unknown): void {
    if (this.readyState !== FakeEventSource.OPEN) throw new Error(`event '${event}' on a stream that is not open`);
    const e = new MessageEvent(event, { data: typeof data === 'string' ? data : JSON.stringify(data) });
    if (event === 'message') this.onmessage?.(e);
    this.dispatchEvent(e);
  }

  /** The connection dropped; the browser reconnects by itself unless `closed`. */
  drop(closed = false): void {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    const e = new Event('error');
    this.onerror?.(e);
    this.dispatchEvent(e);
  }
}

/** Replaces EventSource for this test; `current()` is the stream the page has open now. */
export function installFakeEventSource(): { current: () => FakeEventSource } {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return {
    current: () => {
      const live = FakeEventSource.opened.filter((s) => s.readyState !== FakeEventSource.CLOSED).at(-1);
      if (!live) throw new Error('the page has no event stream open');
      return live;
    },
  };
}
