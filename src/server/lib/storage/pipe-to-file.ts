import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/**
 * Pipes `streams` into a new file. On failure it settles only once the file stream has closed:
 * pipeline rejects as soon as one stage fails, often before the file has even been opened, and a
 * caller that removes the file then races its creation and leaves it behind.
 */
export async function pipeToFile(
  file: string,
  streams: NodeJS.ReadableStream | [NodeJS.ReadableStream, ...NodeJS.ReadWriteStream[]],
  opts: { exclusive?: boolean; signal?: AbortSignal } = {},
): Promise<void> {
  const writer = createWriteStream(file, { flags: opts.exclusive ? 'wx' : 'w' });
  const stages = Array.isArray(streams) ? streams : [streams];
  try {
    await pipeline([...stages, writer], opts.signal ? { signal: opts.signal } : {});
  } catch (err) {
    if (!writer.closed) await new Promise<void>((resolve) => writer.once('close', () => resolve()));
    throw err;
  }
}
