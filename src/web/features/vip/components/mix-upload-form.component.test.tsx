/**
 * The admin's mix upload form: its checks and the server's refusals, the progress line, and a
 * resumable (tus) upload across a dropped connection. The network is XMLHttpRequest (apiUpload and
 * tus-js-client's browser build both use it), answered by the test.
 */
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MIX_AUDIO_EXTENSIONS, MIX_MESSAGES, MIX_RESUMABLE_MIN_BYTES, MIX_RESUMABLE_PATH } from '../../../../contracts/mix-values';
import type { AdminVipMix, MixTags } from '../../../../contracts/mixes';
import { installFakeXhr } from '../../../test-support/fake-xhr';
import { advance, renderInApp } from '../../../test-support/render';
import { MixUploadForm } from './mix-upload-form';

const MB = 1_000_000;
const MIB = 1024 * 1024;
/** tus-js-client's chunks in the form (16 MiB). */
const CHUNK = 16 * MIB;
const SINGLE_PATH = '/api/admin/vip-mixes';
const PREVIEW_PATH = '/api/admin/vip-mixes/preview';
const UPLOAD_URL = `${MIX_RESUMABLE_PATH}/up-1`;

const TAGS: MixTags = { title: null, artist: null, genre: null, durationS: 3600, bitrateKbps: 320, artwork: false };

function uploadedMix(fields: Partial<AdminVipMix> = {}): AdminVipMix {
  return {
    id: 'mix-1',
    title: 'Night Drive',
    artist: 'Anna',
    genre: 'deep house',
    duration: 3600,
    fileSize: 10 * MB,
    artworkUrl: null,
    isExclusive: true,
    rating: 5,
    totalDownloads: 0,
    description: '',
    hasAudio: true,
    s3Url: 'mixes/mix-1.mp3',
    bitrateKbps: 320,
    hidden: false,
    createdAt: '2026-11-27T12:00:00.000Z',
    rendition: { state: 'queued', percent: 0, error: null },
    plays: 0,
    ...fields,
  };
}

let xhr: ReturnType<typeof installFakeXhr>;
beforeEach(() => {
  xhr = installFakeXhr();
});

const audioPicker = () => screen.getByLabelText<HTMLInputElement>('Audio (MP3, AAC/M4A, FLAC, WAV)');
const statusLine = () => screen.getByTestId('upload-status').querySelector('p')?.textContent;
const percentShown = () => screen.getByRole('progressbar', { name: 'Mix upload' }).getAttribute('aria-valuenow');
const message = () => screen.getByRole('status').textContent;

/** Chooses `file` in the audio picker; the form sends its start to the tag preview, answered with `tags`. */
async function chooseAudio(file: File, tags: MixTags | null = TAGS) {
  const picker = audioPicker();
  const chosen = new DataTransfer();
  chosen.items.add(file);
  picker.files = chosen.files;
  fireEvent.change(picker);
  await advance();
  if (tags) xhr.pending('POST', PREVIEW_PATH).respond(200, tags);
  await advance();
}

async function fillAndSubmit() {
  fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Night Drive' } });
  fireEvent.change(screen.getByLabelText('Artist'), { target: { value: 'Anna' } });
  fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  await advance();
}

/** A file of `size` bytes (only its size and name matter to the form). */
const audioFile = (size: number, name = 'night-drive.mp3') => new File([new Uint8Array(size)], name, { type: 'audio/mpeg' });

describe('the mix upload form: checks', () => {
  it('offers the audio types the server takes', () => {
    renderInApp(<MixUploadForm />);
    const accepted = audioPicker().accept.split(',');
    for (const ext of MIX_AUDIO_EXTENSIONS) expect(accepted).toContain(`.${ext}`);
  });

  it('asks for an audio file before sending anything', async () => {
    renderInApp(<MixUploadForm />);
    await chooseAudio(audioFile(0));
    await fillAndSubmit();
    expect(message()).toBe(MIX_MESSAGES.fileRequired);
    expect(xhr.sent().filter((x) => x.url === SINGLE_PATH)).toEqual([]);
  });

  it("shows the server's refusal of a file that is not audio, when chosen and when sent", async () => {
    renderInApp(<MixUploadForm />);
    await chooseAudio(audioFile(3 * MB, 'notes.txt'), null);
    xhr.pending('POST', PREVIEW_PATH).respond(400, { error: { code: 'not_audio', message: MIX_MESSAGES.notAudio }, message: MIX_MESSAGES.notAudio });
    await advance();
    expect(screen.getByText(MIX_MESSAGES.notAudio)).toBeTruthy();

    await fillAndSubmit();
    xhr.pending('POST', SINGLE_PATH).respond(400, { error: { code: 'not_audio', message: MIX_MESSAGES.notAudio }, message: MIX_MESSAGES.notAudio });
    await advance();
    expect(message()).toBe(MIX_MESSAGES.notAudio);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy();
  });

  it("shows the server's refusal of a file over the size limit", async () => {
    const tooLarge = 'The file is larger than the limit of 1 GB';
    renderInApp(<MixUploadForm />);
    await chooseAudio(audioFile(3 * MB));
    await fillAndSubmit();
    const request = xhr.pending('POST', SINGLE_PATH);
    request.progress(3 * MB, 3 * MB);
    request.respond(413, { error: { code: 'too_large', message: tooLarge }, message: tooLarge });
    await advance();
    // A single-request upload cannot resume: no hint to choose the file again.
    expect(message()).toBe(tooLarge);
  });
});

describe('the mix upload form: progress', () => {
  it('shows bytes, percent, speed and time left, then what was uploaded', async () => {
    renderInApp(<MixUploadForm />);
    await chooseAudio(audioFile(10 * MB));
    await fillAndSubmit();
    const request = xhr.pending('POST', SINGLE_PATH);
    expect(percentShown()).toBe('0');

    await advance(2_000);
    request.progress(4 * MB, 10 * MB);
    await advance();
    expect(percentShown()).toBe('40');
    expect(statusLine()).toBe('4 MB of 10 MB · 40% · 2 MB/s · 3 s left');

    request.progress(10 * MB, 10 * MB);
    request.respond(201, uploadedMix());
    await advance();
    expect(message()).toBe('Uploaded: Night Drive (60:00)');
    expect(screen.queryByTestId('upload-status')).toBeNull();
  });
});

describe('the mix upload form: a resumable upload across a dropped connection', () => {
  /** The tus client is loaded when a large upload starts (a module import, not a timer): wait for its first request. */
  async function loaded(method: string, path: string) {
    await vi.waitFor(() => xhr.pending(method, path));
    return xhr.pending(method, path);
  }
  const size = MIX_RESUMABLE_MIN_BYTES + 1;

  /** Submits a large file: tus creates the upload, then sends the first chunk. */
  async function startLargeUpload(file: File) {
    renderInApp(<MixUploadForm />);
    await chooseAudio(file);
    await fillAndSubmit();
    (await loaded('POST', MIX_RESUMABLE_PATH)).respond(201, '', { Location: UPLOAD_URL });
    await advance();
    return xhr.pending('PATCH', UPLOAD_URL);
  }

  it('says "Connection lost — retrying…" while a chunk is retried, and carries on from where the server has it', async () => {
    const first = await startLargeUpload(audioFile(size));
    first.progress(8 * MIB, CHUNK);
    await advance();
    expect(statusLine()).toMatch(/^8 MB of 52 MB · 15%/);

    first.failNetwork();
    await advance();
    expect(statusLine()).toBe('Connection lost — retrying…');

    // The retry asks the server how far it got, and sends from there.
    xhr.pending('HEAD', UPLOAD_URL).respond(200, '', { 'Upload-Offset': String(8 * MIB), 'Upload-Length': String(size) });
    await advance();
    const again = xhr.pending('PATCH', UPLOAD_URL);
    expect(again.requestHeaders['upload-offset']).toBe(String(8 * MIB));
    expect(statusLine()).toBe('Connection lost — retrying…');
    again.respond(204, '', { 'Upload-Offset': String(8 * MIB + CHUNK) });
    await advance();
    expect(statusLine()).toMatch(/^25 MB of 52 MB · 47%/);
  });

  it('gives up after its retries with how to resume, and choosing the same file again resumes there', async () => {
    const file = audioFile(size);
    const first = await startLargeUpload(file);
    first.progress(CHUNK, CHUNK);
    first.respond(204, '', { 'Upload-Offset': String(CHUNK) });
    await advance();

    // The network goes away for good: every retry (0, 1, 3, 5, 10 and 20 s apart) fails.
    xhr.setNetworkDown(true);
    xhr.pending('PATCH', UPLOAD_URL).failNetwork();
    await advance();
    expect(statusLine()).toBe('Connection lost — retrying…');
    await advance(38_000);
    expect(statusLine()).toBe('Connection lost — retrying…');
    await advance(1_000);
    // 16 MiB of 50 MiB + 1 byte.
    expect(message()).toBe('Upload failed. Choose the same file to resume from 31 %.');
    expect(screen.queryByTestId('upload-status')).toBeNull();

    // Back online, the same file carries on from the server's offset instead of starting over.
    xhr.setNetworkDown(false);
    await chooseAudio(file);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    (await loaded('HEAD', UPLOAD_URL)).respond(200, '', { 'Upload-Offset': String(CHUNK), 'Upload-Length': String(size) });
    await advance();
    expect(xhr.sent().filter((x) => x.method === 'POST' && x.url === MIX_RESUMABLE_PATH)).toHaveLength(1);
    expect(xhr.pending('PATCH', UPLOAD_URL).requestHeaders['upload-offset']).toBe(String(CHUNK));
    expect(statusLine()).toMatch(/^17 MB of 52 MB · 31%/);
  });
});
