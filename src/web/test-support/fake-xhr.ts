/**
 * XMLHttpRequest at the network boundary (uploads: `apiUpload` and tus-js-client's browser stack):
 * each request waits until the test answers it, reports upload progress or drops it.
 * `networkDown` fails every request as it is sent, as a browser does while offline.
 */
import { vi } from 'vitest';

type Listener = ((e: Event) => void) | null;

function fire(target: EventTarget & Record<string, unknown>, type: string, fields: Record<string, unknown> = {}) {
  const e = Object.assign(new Event(type), fields);
  const handler = target[`on${type}`] as Listener | undefined;
  handler?.call(target, e);
  target.dispatchEvent(e);
}

class FakeUpload extends EventTarget {
  onprogress: Listener = null;
}

export class FakeXMLHttpRequest extends EventTarget {
  static sent: FakeXMLHttpRequest[] = [];
  static networkDown = false;

  readonly upload = new FakeUpload();
  method = '';
  url = '';
  readonly requestHeaders: Record<string, string> = {};
  body: Document | XMLHttpRequestBodyInit | null = null;
  withCredentials = false;
  readyState = 0;
  status = 0;
  statusText = '';
  responseText = '';
  /** Answered, failed or aborted. */
  done = false;
  private responseHeaders: Record<string, string> = {};
  onload: Listener = null;
  onerror: Listener = null;
  onabort: Listener = null;

  open(method: string, url: string): void {
    this.method = method.toUpperCase();
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string): void {
    this.requestHeaders[name.toLowerCase()] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: Document | XMLHttpRequestBodyInit | null = null): void {
    this.body = body;
    FakeXMLHttpRequest.sent.push(this);
    if (FakeXMLHttpRequest.networkDown) queueMicrotask(() => this.failNetwork());
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    fire(this as never, 'abort');
  }

  /** Bytes of the body sent so far. */
  progress(loaded: number, total: number): void {
    fire(this.upload as never, 'progress', { loaded, total, lengthComputable: true });
  }

  respond(status: number, body: unknown = '', headers: Record<string, string> = {}): void {
    if (this.done) throw new Error(`${this.method} ${this.url} was already answered`);
    this.done = true;
    this.status = status;
    this.readyState = 4;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.responseHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (typeof body !== 'string') this.responseHeaders['content-type'] ??= 'application/json; charset=utf-8';
    fire(this as never, 'load');
  }

  /** The connection dropped. */
  failNetwork(): void {
    if (this.done) return;
    this.done = true;
    this.readyState = 4;
    fire(this as never, 'error');
  }
}

/** Replaces XMLHttpRequest for this test; `pending(method, path)` is the oldest unanswered request to it. */
export function installFakeXhr() {
  FakeXMLHttpRequest.sent = [];
  FakeXMLHttpRequest.networkDown = false;
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  const pending = (method: string, path: string) => {
    const xhr = FakeXMLHttpRequest.sent.find((x) => !x.done && x.method === method && new URL(x.url, location.href).pathname === path);
    if (!xhr) throw new Error(`no ${method} ${path} waiting; sent: ${FakeXMLHttpRequest.sent.map((x) => `${x.method} ${x.url}`).join(', ')}`);
    return xhr;
  };
  return {
    pending,
    sent: () => FakeXMLHttpRequest.sent,
    setNetworkDown: (down: boolean) => void (FakeXMLHttpRequest.networkDown = down),
  };
}
