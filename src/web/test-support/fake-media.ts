/**
 * A test double of what the browser's media stack does for an <audio> element, for component tests
 * in happy-dom (whose play() and pause() do nothing and which fires no media events). The element
 * keeps the state a real one has (paused, readyState, currentTime, ended, error) and fires what a
 * real one fires by itself (`loadstart` after load(), `sourceopen` when a MediaSource is attached);
 * everything the network decides (playing, a stall, an error, the end of a stream, time passing) the
 * test drives through `mediaOf(audio)`. MediaSource and SourceBuffer are doubled too: appended bytes
 * become `secondsPerByte` seconds of buffered audio each.
 */
import { vi } from 'vitest';

const HAVE_NOTHING = 0;
const HAVE_CURRENT_DATA = 2;
const HAVE_ENOUGH_DATA = 4;

interface ElementState {
  paused: boolean;
  readyState: number;
  currentTime: number;
  ended: boolean;
  error: { code: number; message: string } | null;
  /** The sources load() was called with, in order ('' for none). */
  loads: string[];
  plays: number;
  /** `pause` events held back by holdPauseEvents, not yet delivered. */
  heldPauses?: (() => void)[];
}

const states = new WeakMap<HTMLMediaElement, ElementState>();

function stateOf(el: HTMLMediaElement): ElementState {
  let s = states.get(el);
  if (!s) {
    s = { paused: true, readyState: HAVE_NOTHING, currentTime: 0, ended: false, error: null, loads: [], plays: 0 };
    states.set(el, s);
  }
  return s;
}

function fire(target: EventTarget, type: string) {
  target.dispatchEvent(new Event(type));
}

/** Buffered time as TimeRanges: one range. */
function ranges(start: number, end: number): TimeRanges {
  const length = end > start ? 1 : 0;
  const at = (i: number, value: number) => {
    if (i >= length) throw new DOMException('index out of range', 'IndexSizeError');
    return value;
  };
  return { length, start: (i: number) => at(i, start), end: (i: number) => at(i, end) };
}

class FakeSourceBuffer extends EventTarget {
  mode: AppendMode = 'segments';
  updating = false;
  private start = 0;
  private end = 0;

  constructor(private readonly secondsPerByte: number) {
    super();
  }

  get buffered(): TimeRanges {
    return ranges(this.start, this.end);
  }

  appendBuffer(bytes: BufferSource): void {
    this.update(() => (this.end += bytes.byteLength * this.secondsPerByte));
  }

  remove(start: number, end: number): void {
    this.update(() => {
      if (start <= this.start) this.start = Math.min(this.end, Math.max(this.start, end));
    });
  }

  /** Like a browser: `updating` until the change is applied a moment later, then `updateend`. */
  private update(change: () => void) {
    if (this.updating) throw new DOMException('still updating', 'InvalidStateError');
    this.updating = true;
    queueMicrotask(() => {
      change();
      this.updating = false;
      fire(this, 'updateend');
    });
  }
}

const objectUrls = new Map<string, FakeMediaSource>();
let nextObjectUrl = 0;

class FakeMediaSource extends EventTarget {
  static secondsPerByte = 1;
  static isTypeSupported(type: string): boolean {
    return type === 'audio/mpeg';
  }
  readyState: ReadyState = 'closed';
  readonly sourceBuffers: FakeSourceBuffer[] = [];

  addSourceBuffer(type: string): FakeSourceBuffer {
    if (this.readyState !== 'open' || !FakeMediaSource.isTypeSupported(type)) throw new DOMException(type, 'NotSupportedError');
    const buffer = new FakeSourceBuffer(FakeMediaSource.secondsPerByte);
    this.sourceBuffers.push(buffer);
    return buffer;
  }
}

/** What the test drives on one <audio> element. */
export interface MediaDriver {
  readonly paused: boolean;
  /** The sources load() was called with, in order: one per (re)connection. */
  readonly loads: readonly string[];
  /** How often play() was called. */
  readonly plays: number;
  /** Enough data arrived: `canplay`, then `playing`. */
  startPlaying(): void;
  /** The download stops delivering while the buffer still plays (`stalled`: nothing changes for the listener yet). */
  fetchStalls(): void;
  /** The data stops arriving while it plays: the buffer runs dry (`waiting`). */
  stall(): void;
  /** A network or decode error (`error`, with MediaError code 2). */
  fail(): void;
  /** The server closed the stream: the element pauses and ends. */
  end(): void;
  /** Playback reached `seconds` (`timeupdate`). */
  playTo(seconds: number): void;
  /**
   * From now on `pause` events wait, as a real browser's may wait behind the listener's next click,
   * until the returned function delivers them. A load drops them undelivered, as the browser does.
   */
  holdPauseEvents(): () => void;
}

export function mediaOf(el: HTMLMediaElement): MediaDriver {
  const s = stateOf(el);
  return {
    get paused() {
      return s.paused;
    },
    get loads() {
      return s.loads;
    },
    get plays() {
      return s.plays;
    },
    startPlaying() {
      s.readyState = HAVE_ENOUGH_DATA;
      s.paused = false;
      fire(el, 'canplay');
      fire(el, 'playing');
    },
    fetchStalls() {
      fire(el, 'stalled');
    },
    stall() {
      s.readyState = HAVE_CURRENT_DATA;
      fire(el, 'waiting');
    },
    fail() {
      s.error = { code: 2, message: 'MEDIA_ERR_NETWORK' };
      fire(el, 'error');
    },
    end() {
      s.ended = true;
      s.paused = true;
      fire(el, 'pause');
      fire(el, 'ended');
    },
    playTo(seconds) {
      s.currentTime = seconds;
      fire(el, 'timeupdate');
    },
    holdPauseEvents() {
      s.heldPauses = [];
      return () => {
        const held = s.heldPauses ?? [];
        s.heldPauses = undefined;
        for (const deliver of held) deliver();
      };
    },
  };
}

/**
 * Installs the doubles on HTMLMediaElement.prototype (and, with `mediaSource`, MediaSource and
 * object URLs for it) until `vi.restoreAllMocks()`/`vi.unstubAllGlobals()` (test-support/setup.ts).
 */
export function installFakeMedia({ mediaSource = false, secondsPerByte = 1 }: { mediaSource?: boolean; secondsPerByte?: number } = {}): void {
  const proto = HTMLMediaElement.prototype;
  const getter = <K extends keyof ElementState>(key: K) =>
    vi.spyOn(proto, key as 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
      return stateOf(this)[key] as never;
    });
  getter('paused');
  getter('readyState');
  getter('ended');
  getter('error');
  vi.spyOn(proto, 'currentTime', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return stateOf(this).currentTime;
  });
  vi.spyOn(proto, 'currentTime', 'set').mockImplementation(function (this: HTMLMediaElement, value: number) {
    stateOf(this).currentTime = value;
  });
  vi.spyOn(proto, 'src', 'set').mockImplementation(function (this: HTMLMediaElement, value: string) {
    this.setAttribute('src', value);
    const media = objectUrls.get(value);
    // Attaching a MediaSource opens it a moment later.
    if (media)
      queueMicrotask(() => {
        media.readyState = 'open';
        fire(media, 'sourceopen');
      });
  });
  vi.spyOn(proto, 'load').mockImplementation(function (this: HTMLMediaElement) {
    const s = stateOf(this);
    const src = this.getAttribute('src') ?? '';
    s.loads.push(src);
    // The media element load algorithm: back to nothing, paused without a `pause` event.
    Object.assign(s, { paused: true, readyState: HAVE_NOTHING, currentTime: 0, ended: false, error: null });
    if (s.heldPauses) s.heldPauses = [];
    if (src) queueMicrotask(() => fire(this, 'loadstart'));
  });
  vi.spyOn(proto, 'play').mockImplementation(function (this: HTMLMediaElement) {
    const s = stateOf(this);
    s.plays += 1;
    s.paused = false;
    s.ended = false;
    return Promise.resolve();
  });
  vi.spyOn(proto, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    const s = stateOf(this);
    if (s.paused) return;
    s.paused = true;
    if (s.heldPauses) s.heldPauses.push(() => fire(this, 'pause'));
    else queueMicrotask(() => fire(this, 'pause'));
  });

  if (!mediaSource) return;
  FakeMediaSource.secondsPerByte = secondsPerByte;
  vi.stubGlobal('MediaSource', FakeMediaSource);
  const createObjectURL = URL.createObjectURL.bind(URL);
  vi.spyOn(URL, 'createObjectURL').mockImplementation((object: Blob | MediaSource) => {
    if (!(object instanceof FakeMediaSource)) return createObjectURL(object as Blob);
    const url = `blob:${location.origin}/media-${++nextObjectUrl}`;
    objectUrls.set(url, object);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => void objectUrls.delete(url));
}
