/**
 * Unpacks a backup archive (.tar.gz) without `tar -x`: every entry is read and checked before a byte
 * of it is written. Only regular files and directories with relative names inside the target are
 * accepted; `..`, absolute names, links (symbolic or hard), devices and FIFOs refuse the whole archive,
 * and so does a header with a wrong checksum or an archive that ends early (docs/security.md, "Backups").
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BLOCK = 512;

/** The archive is not a gzip at all. */
export class NotAnArchiveError extends Error {}
/** The archive is a gzip whose content is cut off or broken. */
export class DamagedArchiveError extends Error {}
/** The archive holds an entry it may never hold (a link, a device, a name outside the target). */
export class UnsafeEntryError extends Error {}

function text(buf: Buffer, start: number, length: number): string {
  const field = buf.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

function octal(buf: Buffer, start: number, length: number): number {
  const field = buf.subarray(start, start + length);
  if ((field[0] ?? 0) & 0x80) {
    // GNU base-256 for sizes of 8 GB and more.
    let n = 0;
    for (let i = 1; i < field.length; i++) n = n * 256 + (field[i] ?? 0);
    return n;
  }
  const s = text(buf, start, length).trim();
  if (!/^[0-7]*$/.test(s)) throw new DamagedArchiveError('a header field is not a number');
  return s ? parseInt(s, 8) : 0;
}

function checksumMatches(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum === octal(header, 148, 8);
}

/** The entry's name as path segments inside the target; refuses anything that could leave it. */
export function safeSegments(name: string): string[] {
  if (name.includes('\0') || name.includes('\\')) throw new UnsafeEntryError(`unsafe name ${JSON.stringify(name)}`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new UnsafeEntryError(`absolute path ${JSON.stringify(name)}`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new UnsafeEntryError(`path with .. ${JSON.stringify(name)}`);
  return segments;
}

function paxPath(data: Buffer): string | undefined {
  let found: string | undefined;
  let rest = data.toString('utf8');
  while (rest.length) {
    const space = rest.indexOf(' ');
    const len = Number(rest.slice(0, space));
    if (space < 1 || !Number.isInteger(len) || len <= space) throw new DamagedArchiveError('a pax header is malformed');
    const record = rest.slice(space + 1, len - 1);
    const eq = record.indexOf('=');
    const key = record.slice(0, eq);
    if (key === 'path') found = record.slice(eq + 1);
    if (key === 'linkpath') throw new UnsafeEntryError('a link');
    rest = rest.slice(len);
  }
  return found;
}

type State =
  { kind: 'header' } | { kind: 'data'; remaining: number; padding: number; fd?: number; collect?: Buffer[]; then?: (data: Buffer) => void } | { kind: 'end' };

const LINK_OR_DEVICE: Record<string, string> = { '1': 'a hard link', '2': 'a symbolic link', '3': 'a device', '4': 'a device', '6': 'a FIFO', K: 'a link' };

/** Unpacks `file` into the empty directory `into` (files 0600, directories 0700). */
export async function extractArchive(file: string, into: string): Promise<void> {
  const head = Buffer.alloc(2);
  const probe = fs.openSync(file, 'r');
  try {
    fs.readSync(probe, head, 0, 2, 0);
  } finally {
    fs.closeSync(probe);
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) throw new NotAnArchiveError('not gzip');

  let pending: Buffer = Buffer.alloc(0);
  let state: State = { kind: 'header' };
  let longName: string | undefined;
  let nextPath: string | undefined;
  let zeroBlocks = 0;
  const openFds = new Set<number>();

  const startEntry = (header: Buffer): State => {
    if (!checksumMatches(header)) throw new DamagedArchiveError('a header checksum does not match');
    const type = String.fromCharCode(header[156] ?? 0);
    const size = octal(header, 124, 12);
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    const prefix = text(header, 345, 155);
    const baseName = text(header, 0, 100);
    // POSIX ustar keeps a name prefix; GNU's own format ('ustar  ') uses those bytes for other fields.
    const posix = header.subarray(257, 263).toString('latin1') === 'ustar\0';
    const name = nextPath ?? longName ?? (posix && prefix ? `${prefix}/${baseName}` : baseName);
    if (LINK_OR_DEVICE[type]) throw new UnsafeEntryError(`${LINK_OR_DEVICE[type]} (${JSON.stringify(name)})`);
    if (type === 'L') return { kind: 'data', remaining: size, padding, collect: [], then: (d) => (longName = text(d, 0, d.length)) };
    if (type === 'x') return { kind: 'data', remaining: size, padding, collect: [], then: (d) => (nextPath = paxPath(d)) };
    if (type === 'g') return { kind: 'data', remaining: size, padding };
    longName = undefined;
    nextPath = undefined;
    const segments = safeSegments(name);
    if (type === '5') {
      if (segments.length) fs.mkdirSync(path.join(into, ...segments), { recursive: true, mode: 0o700 });
      return { kind: 'data', remaining: size, padding };
    }
    if (type !== '0' && type !== '\0' && type !== '7') throw new UnsafeEntryError(`an entry of type ${JSON.stringify(type)} (${JSON.stringify(name)})`);
    if (!segments.length) throw new UnsafeEntryError(`a file without a name`);
    const target = path.join(into, ...segments);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = fs.openSync(target, 'wx', 0o600);
    } catch {
      throw new UnsafeEntryError(`a duplicate entry (${JSON.stringify(name)})`);
    }
    openFds.add(fd);
    return { kind: 'data', remaining: size, padding, fd };
  };

  const finishData = (s: Extract<State, { kind: 'data' }>) => {
    if (s.fd !== undefined) {
      fs.closeSync(s.fd);
      openFds.delete(s.fd);
    }
    if (s.then) s.then(Buffer.concat(s.collect ?? []));
  };

  const consume = () => {
    for (;;) {
      if (state.kind === 'end') return;
      if (state.kind === 'header') {
        if (pending.length < BLOCK) return;
        const header = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (header.every((b) => b === 0)) {
          if (++zeroBlocks === 2) state = { kind: 'end' };
          continue;
        }
        if (zeroBlocks) throw new DamagedArchiveError('data after an end block');
        state = startEntry(header);
        continue;
      }
      if (state.remaining > 0) {
        if (!pending.length) return;
        const piece = pending.subarray(0, Math.min(state.remaining, pending.length));
        pending = pending.subarray(piece.length);
        state.remaining -= piece.length;
        if (state.fd !== undefined) fs.writeSync(state.fd, piece);
        if (state.collect) {
          if (state.collect.reduce((n, b) => n + b.length, 0) + piece.length > 1024 * 1024) throw new DamagedArchiveError('a header is too long');
          state.collect.push(Buffer.from(piece));
        }
        continue;
      }
      if (pending.length < state.padding) return;
      pending = pending.subarray(state.padding);
      finishData(state);
      state = { kind: 'header' };
    }
  };

  try {
    const gunzip = fs.createReadStream(file).pipe(zlib.createGunzip());
    try {
      for await (const chunk of gunzip) {
        pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
        consume();
      }
    } catch (err) {
      if (err instanceof UnsafeEntryError || err instanceof DamagedArchiveError) throw err;
      throw new DamagedArchiveError((err as Error).message);
    }
    if ((state as State).kind !== 'end') throw new DamagedArchiveError('the archive ends early');
  } finally {
    for (const fd of openFds) fs.closeSync(fd);
  }
}
