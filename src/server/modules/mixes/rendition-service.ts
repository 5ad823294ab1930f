import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeToFile } from '../../lib/storage/pipe-to-file';
import { MIX_MESSAGES } from '../../../contracts/mixes';
import { MINUTE_MS, SECOND_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { FfmpegMissingError, runFfmpeg } from '../../lib/ffmpeg';
import { MEDIA_TYPES, type MediaStorage } from '../../lib/storage/media-storage';
import { claimRendition, failRendition, finishRendition, releaseRendition, renewRendition, type MixRow } from './mixes-repository';

/**
 * Listening copies of VIP mixes (docs/decisions/0015-vip-mixes-and-media-storage.md): every mix gets
 * one 128 kbit/s CBR MP3 that the stream links serve; the master is only ever downloaded. A queue in
 * the mix rows (rendition_state): an instance takes one mix at a time under a lease it renews while
 * ffmpeg runs, so instances never render the same mix twice and a mix whose instance stopped is taken
 * over when its lease runs out. Failures are retried with backoff a few times; a missing ffmpeg fails
 * at once with the words admins need.
 */

/** The one listening format: MP3 plays in every browser, streams out of ffmpeg without an index, and a byte offset is a time offset. */
export const RENDITION_BITRATE_KBPS = 128;
export const RENDITION_EXTENSION = 'mp3';
/** A running rendition whose lease is this old is taken over by another instance (or this one after a restart). */
const LEASE_MS = 2 * MINUTE_MS;
/** How often a running rendition writes its percent (and renews its lease). */
const PROGRESS_EVERY_MS = 2 * SECOND_MS;
/** Attempts of one rendition before it stays failed (an admin may retry it). */
export const RENDITION_MAX_ATTEMPTS = 3;
/** Wait before attempt n+1: 1, 4, 16 minutes. */
const backoffMs = (attempts: number) => MINUTE_MS * 4 ** attempts;
/** Inputs ffmpeg must read from a file: an M4A's index may sit at its end. */
const SEEKABLE_INPUTS = new Set(['m4a']);
/** A listening copy is never larger than the master's bitrate allows; this caps a runaway encode. */
const MAX_RENDITION_BYTES = 4 * 1024 * 1024 * 1024;

export function renditionKey(mixId: string): string {
  return `renditions/${mixId}.${RENDITION_EXTENSION}`;
}

export interface RenditionDeps {
  db: Db;
  storage: MediaStorage;
  /** FFMPEG_PATH. */
  ffmpeg: string;
  /** Another instance's cached mix rows are stale once a copy is ready or failed. */
  announceChange: () => Promise<void>;
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}

/** Renders the listening copy of one claimed mix into storage; returns its size. */
async function render(deps: RenditionDeps, mix: MixRow, signal: AbortSignal): Promise<number> {
  const master = mix.s3Url ?? '';
  const ext = master.slice(master.lastIndexOf('.') + 1);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-rendition-'));
  try {
    let input: string = 'pipe:0';
    let stdin: NodeJS.ReadableStream | undefined = await deps.storage.open(master);
    if (SEEKABLE_INPUTS.has(ext)) {
      input = path.join(dir, `master.${ext}`);
      await pipeToFile(input, stdin, { signal });
      stdin = undefined;
    }
    const out = path.join(dir, `listening.${RENDITION_EXTENSION}`);
    let lastWrite = 0;
    await runFfmpeg({
      bin: deps.ffmpeg,
      durationS: mix.duration,
      input: stdin,
      signal,
      args: ['-i', input, '-vn', '-map_metadata', '-1', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', `${RENDITION_BITRATE_KBPS}k`, '-f', 'mp3', '-y', out],
      onProgress: (fraction) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        // Percent stops at 99 until the copy is stored.
        void renewRendition(deps.db, mix.id, Math.min(99, Math.floor(fraction * 100)), LEASE_MS).catch(() => undefined);
      },
    });
    const stored = await deps.storage.put(renditionKey(mix.id), createReadStream(out), {
      contentType: MEDIA_TYPES[RENDITION_EXTENSION] ?? 'audio/mpeg',
      maxBytes: MAX_RENDITION_BYTES,
    });
    return stored.size;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The reason an admin sees for a failed attempt. */
function reasonOf(err: unknown): string {
  if (err instanceof FfmpegMissingError) return MIX_MESSAGES.ffmpegMissing;
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 500) || 'The listening copy could not be made';
}

/** One worker per instance: renders one mix at a time (ffmpeg takes a core), until none is due. */
export class RenditionWorker {
  private running: Promise<number> | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly deps: RenditionDeps) {}

  /** Starts working through the queue unless this instance already is; resolves with the mixes handled. */
  drain(): Promise<number> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the mix in hand and gives it back to the queue at once (so a restart need not wait for its lease). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running?.catch(() => undefined);
  }

  private async work(): Promise<number> {
    let handled = 0;
    while (!this.abort.signal.aborted) {
      const mix = await claimRendition(this.deps.db, LEASE_MS);
      if (!mix) break;
      handled++;
      await this.renderOne(mix);
    }
    return handled;
  }

  private async renderOne(mix: MixRow): Promise<void> {
    const { db, log } = this.deps;
    try {
      const size = await render(this.deps, mix, this.abort.signal);
      await finishRendition(db, mix.id, renditionKey(mix.id), size);
      log.info({ mixId: mix.id, size }, 'listening copy ready');
    } catch (err) {
      if (this.abort.signal.aborted) {
        await releaseRendition(db, mix.id).catch(() => undefined);
        return;
      }
      const attempts = mix.renditionAttempts + 1;
      const final = err instanceof FfmpegMissingError || attempts >= RENDITION_MAX_ATTEMPTS;
      log.warn({ err, mixId: mix.id, attempts }, final ? 'listening copy failed' : 'listening copy failed; will retry');
      await failRendition(db, mix.id, reasonOf(err), final ? null : new Date(Date.now() + backoffMs(attempts - 1)));
    }
    await this.deps.announceChange();
  }
}
