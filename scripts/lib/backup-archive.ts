/**
 * One backup archive (a .tar.gz): manifest.json, the database (PGlite's data directory as a gzipped
 * tar, or pg_dump's custom format) and the local media files, each with its SHA-256 in the manifest.
 * `npm run backup` and `npm run restore` are thin command lines around createBackup and restoreBackup.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Config } from '../../src/server/config';
import { DHR_APPLICATION_NAME } from '../../src/server/db/client';
import {
  copyPgliteIntoPostgres,
  dhrSessions,
  dumpPglite,
  dumpPostgres,
  loadPglite,
  lockPgliteDir,
  pgliteExists,
  postgresTableCount,
  postgresVersion,
  restorePostgres,
} from '../../src/server/db/backup';
import { DatabaseLockedError } from '../../src/server/db/dir-lock';
import { DamagedArchiveError, extractArchive, NotAnArchiveError, safeSegments, UnsafeEntryError } from './tar-extract';

const FORMAT = 'dhr-backup';
const NOTHING_CHANGED = 'Nothing was changed.';

/** A manifest path is relative, without `..`: a media file can only land inside media/ (docs/security.md, "Backups"). */
const relativePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => {
    try {
      return safeSegments(p).join('/') === p;
    } catch {
      return false;
    }
  });

const fileEntrySchema = z.object({ path: relativePath, bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.literal(1),
  createdAt: z.string(),
  dhrVersion: z.string(),
  node: z.string(),
  database: fileEntrySchema.extend({ kind: z.enum(['pglite', 'postgresql']), serverVersion: z.string() }),
  media: z.object({ kind: z.enum(['local', 's3']), bucket: z.string().optional(), files: z.array(fileEntrySchema) }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** Refusals the command lines print as they are (no stack): a non-empty target, a damaged archive. */
export class BackupError extends Error {}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function entry(root: string, rel: string): Promise<z.infer<typeof fileEntrySchema>> {
  const file = path.join(root, rel);
  return { path: rel.split(path.sep).join('/'), bytes: fs.statSync(file).size, sha256: await sha256(file) };
}

/** Every file under `dir`, relative to it (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

const pgliteDir = (config: Config) => path.join(config.dataDir, 'db');
const mediaDir = (config: Config) => path.join(config.dataDir, 'media');

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/**
 * A media file into the staging folder without copying its bytes where it can: a hard link (the same
 * file, still whole if DHR deletes or replaces it meanwhile), else a copy (another filesystem). Copies
 * of an hour-long mix are hundreds of megabytes of dirty pages, and the database's commits on the same
 * disk waited behind them (docs/decisions/0038-idle-class-and-paced-flushes.md).
 */
function stageFile(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

/** Archive bytes written between two flushes to disk (tarInto). */
const FLUSH_EVERY_BYTES = 4 * 1024 * 1024;

const writeToFd = promisify(fs.write);
const fdatasync = promisify(fs.fdatasync);
const fsync = promisify(fs.fsync);

async function writeAll(fd: number, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await writeToFd(fd, bytes, at, bytes.length - at)).bytesWritten;
}

/**
 * `tar -cz` of `dir` into the open file `fd` (created 0600 by us, so tar never opens a path an attacker
 * could have placed), on disk when it returns. Flushed as it is written, a few megabytes at a time: one
 * flush of the whole archive at the end holds the filesystem's journal while hundreds of megabytes of
 * media reach the disk, and every commit of a database on that disk (a chat post, a stream admission)
 * waits behind it (docs/decisions/0038-idle-class-and-paced-flushes.md).
 */
async function tarInto(dir: string, fd: number): Promise<void> {
  // Every entry readable by its owner only, whatever the mode of the file it was made from.
  const child = spawn('tar', ['-cz', '--mode=go-rwx', '-C', dir, '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  try {
    let unflushed = 0;
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      await writeAll(fd, chunk);
      unflushed += chunk.length;
      if (unflushed >= FLUSH_EVERY_BYTES) {
        await fdatasync(fd);
        unflushed = 0;
      }
    }
    const code = await exited;
    if (code !== 0) throw new Error(`tar failed: ${stderr.trim()}`);
    await fsync(fd);
  } finally {
    child.kill();
  }
}

/**
 * Writes the archive to `out` (0600, every entry inside 0600 or 0700); returns its manifest. A directory
 * every user may write to is refused unless `force`: another user could read or swap the archive.
 */
export async function createBackup(config: Config, out: string, force = false): Promise<BackupManifest> {
  const outDir = path.dirname(path.resolve(out));
  if (!fs.existsSync(outDir)) fs.mkdirSync(outDir, { recursive: true, mode: 0o700 });
  if ((fs.statSync(outDir).mode & 0o002) !== 0 && !force) {
    throw new BackupError(
      `Refused: ${outDir} is writable by every user, who could replace or read the backup there. Write it into a directory only you can write to, or add --force.`,
    );
  }
  // Beside the media (same filesystem: they are linked, not copied), else in the system's temporary folder.
  const staging = fs.mkdtempSync(path.join(fs.existsSync(config.dataDir) ? config.dataDir : os.tmpdir(), '.backup-'));
  const umask = process.umask(0o077); // pg_dump and the copies create their files for the owner only
  try {
    fs.mkdirSync(path.join(staging, 'database'));
    let database: BackupManifest['database'];
    if (config.DATABASE_URL) {
      const rel = path.join('database', 'postgres.dump');
      await dumpPostgres(config.DATABASE_URL, path.join(staging, rel));
      database = { kind: 'postgresql', serverVersion: await postgresVersion(config.DATABASE_URL), ...(await entry(staging, rel)) };
    } else {
      if (!pgliteExists(pgliteDir(config)))
        throw new BackupError(`No DHR database in ${config.dataDir}: set DATA_DIR (or DATABASE_URL) to the instance to back up.`);
      const rel = path.join('database', 'pglite.tar.gz');
      await dumpPglite(pgliteDir(config), path.join(staging, rel));
      database = { kind: 'pglite', serverVersion: 'PGlite', ...(await entry(staging, rel)) };
    }
    let media: BackupManifest['media'];
    if (config.S3_BUCKET) {
      // Objects stay in the bucket: its versioning or replication is their backup (docs/operations.md).
      media = { kind: 's3', bucket: config.S3_BUCKET, files: [] };
    } else {
      const files = filesUnder(mediaDir(config));
      for (const rel of files) {
        fs.mkdirSync(path.join(staging, 'media', path.dirname(rel)), { recursive: true });
        stageFile(path.join(mediaDir(config), rel), path.join(staging, 'media', rel));
      }
      media = { kind: 'local', files: await Promise.all(files.map((rel) => entry(path.join(staging, 'media'), rel))) };
    }
    const manifest: BackupManifest = {
      format: FORMAT,
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      dhrVersion: packageVersion(),
      node: process.version,
      database,
      media,
    };
    fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // Written beside the target under a fresh name and renamed: an interrupted backup never leaves a
    // truncated archive under the name, and the file is ours (O_EXCL, 0600) from its first byte.
    const partial = `${path.resolve(out)}.${randomBytes(6).toString('hex')}.partial`;
    const fd = fs.openSync(partial, 'wx', 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
      await tarInto(staging, fd);
    } catch (err) {
      fs.rmSync(partial, { force: true });
      throw err;
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, out);
    return manifest;
  } finally {
    process.umask(umask);
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Unpacks the archive and checks its manifest and every checksum before anything is restored. */
async function unpack(file: string, into: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new BackupError(`No backup at ${file}.`);
  try {
    await extractArchive(file, into);
  } catch (err) {
    if (err instanceof NotAnArchiveError) throw new BackupError(`${file} is not a DHR backup (it does not unpack as .tar.gz). ${NOTHING_CHANGED}`);
    if (err instanceof DamagedArchiveError) throw new BackupError(`${file} is damaged or truncated (${err.message}). ${NOTHING_CHANGED}`);
    if (err instanceof UnsafeEntryError) throw new BackupError(`${file} is refused: it holds ${err.message}. ${NOTHING_CHANGED}`);
    throw err;
  }
  let manifest: BackupManifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(into, 'manifest.json'), 'utf8')));
  } catch {
    throw new BackupError(`${file} is not a DHR backup (no readable manifest.json, or a path in it leaves the archive). ${NOTHING_CHANGED}`);
  }
  const entries = [manifest.database, ...manifest.media.files.map((f) => ({ ...f, path: `media/${f.path}` }))];
  for (const e of entries) {
    const target = path.resolve(into, e.path);
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (!target.startsWith(path.resolve(into) + path.sep) || !stat?.isFile() || (await sha256(target)) !== e.sha256) {
      throw new BackupError(`The backup is damaged: ${e.path} is missing or does not match its checksum. ${NOTHING_CHANGED}`);
    }
  }
  return manifest;
}

/** The first line of a failure, for a one-line message (pg_restore's stderr, PGlite's abort). */
function firstLine(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  const raw = (e.stderr?.trim() || e.message || String(err)).split('\n')[0] ?? '';
  return raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
}

/** Copies the archive's media into the new directory `dir` (each target checked to stay inside it). */
function copyMedia(manifest: BackupManifest, staging: string, dir: string): void {
  fs.mkdirSync(dir, { mode: 0o700 });
  for (const f of manifest.media.files) {
    const target = path.resolve(dir, ...safeSegments(f.path));
    if (!target.startsWith(dir + path.sep)) throw new BackupError(`The backup is damaged: media/${f.path} leaves media/. ${NOTHING_CHANGED}`);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    fs.copyFileSync(path.join(staging, 'media', f.path), target, fs.constants.COPYFILE_EXCL);
  }
}

/**
 * Puts each prepared directory in place of its target by rename. Targets already moved aside are
 * moved back if a later rename fails, so the old instance stays whole; the old copies go last.
 */
function swapIn(pairs: { fresh: string; target: string }[]): void {
  const done: { fresh: string; target: string; aside?: string }[] = [];
  try {
    for (const p of pairs) {
      const aside = fs.existsSync(p.target) ? `${p.target}.replaced-${randomBytes(4).toString('hex')}` : undefined;
      if (aside) fs.renameSync(p.target, aside);
      done.push({ ...p, aside });
      fs.renameSync(p.fresh, p.target);
    }
  } catch (err) {
    for (const p of done.reverse()) {
      if (fs.existsSync(p.target) && !fs.existsSync(p.fresh)) fs.renameSync(p.target, p.fresh);
      if (p.aside) fs.renameSync(p.aside, p.target);
    }
    throw err;
  }
  for (const p of done) if (p.aside) fs.rmSync(p.aside, { recursive: true, force: true });
}

export interface RestoreOptions {
  /** Replace a database and media already there. */
  force?: boolean;
  /** Move a PGlite backup into the empty PostgreSQL database at DATABASE_URL (copyPgliteIntoPostgres). */
  intoPostgres?: boolean;
}

/**
 * Restores the archive into the configured DATA_DIR (or DATABASE_URL). A target that already holds a
 * database or media is refused unless `force`, which replaces them; a PostgreSQL database a DHR server
 * is connected to is refused always. `intoPostgres` moves a PGlite backup into an empty PostgreSQL
 * database (never over one with tables, even with `force`). Nothing is replaced before the new
 * copy is whole: the archive is unpacked and checked, the embedded database is loaded into a new folder
 * and opened, media are copied into a new folder, and only then are the folders swapped in by rename
 * (on PostgreSQL, pg_restore runs in one transaction). Any failure leaves the old instance as it was.
 */
export async function restoreBackup(config: Config, file: string, { force = false, intoPostgres = false }: RestoreOptions = {}): Promise<BackupManifest> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-restore-'));
  const made: string[] = [];
  let lock: { release(): void } | undefined;
  try {
    const manifest = await unpack(file, staging);
    if (intoPostgres && manifest.database.kind !== 'pglite') {
      throw new BackupError(
        `--into-postgres moves a PGlite backup; this one holds a PostgreSQL database: restore it without --into-postgres. ${NOTHING_CHANGED}`,
      );
    }
    if (intoPostgres && !config.DATABASE_URL) {
      throw new BackupError(`--into-postgres needs DATABASE_URL naming an empty PostgreSQL database to move the backup into. ${NOTHING_CHANGED}`);
    }
    const wantsPostgres = manifest.database.kind === 'postgresql' || intoPostgres;
    if (wantsPostgres !== Boolean(config.DATABASE_URL)) {
      throw new BackupError(
        wantsPostgres
          ? `This backup holds a PostgreSQL database: set DATABASE_URL to an empty database to restore it into. ${NOTHING_CHANGED}`
          : `This backup holds a PGlite database: unset DATABASE_URL and set DATA_DIR to an empty directory to restore it into. ${NOTHING_CHANGED}`,
      );
    }
    if (config.DATABASE_URL) {
      const sessions = await dhrSessions(config.DATABASE_URL);
      if (sessions > 0) {
        throw new BackupError(
          `Refused: DHR is running on the database at DATABASE_URL (${sessions} connection(s) named '${DHR_APPLICATION_NAME}' in pg_stat_activity). Stop every instance first (systemctl stop 'dhr@*', or stop the npm start processes), then restore. ${NOTHING_CHANGED}`,
        );
      }
    }
    const media = mediaDir(config);
    const occupied: string[] = [];
    if (config.DATABASE_URL && (await postgresTableCount(config.DATABASE_URL)) > 0) occupied.push('the database at DATABASE_URL has tables');
    if (!config.DATABASE_URL && pgliteExists(pgliteDir(config))) occupied.push(`${pgliteDir(config)} holds a database`);
    if (manifest.media.kind === 'local' && filesUnder(media).length > 0) occupied.push(`${media} holds files`);
    if (intoPostgres && occupied[0]?.startsWith('the database')) {
      throw new BackupError(
        `Refused: the database at DATABASE_URL has tables. --into-postgres fills an empty database only: create a new one (createdb) or drop and create this one. ${NOTHING_CHANGED}`,
      );
    }
    if (occupied.length && !force) {
      throw new BackupError(`Refused: ${occupied.join('; ')}. Restore into an empty DATA_DIR or database, or add --force to replace them. ${NOTHING_CHANGED}`);
    }
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const suffix = randomBytes(4).toString('hex');
    const pairs: { fresh: string; target: string }[] = [];
    try {
      if (manifest.media.kind === 'local') {
        const fresh = `${media}.restoring-${suffix}`;
        made.push(fresh);
        copyMedia(manifest, staging, fresh);
        pairs.push({ fresh, target: media });
      }
      const dump = path.join(staging, manifest.database.path);
      if (intoPostgres && config.DATABASE_URL) {
        // One transaction on the target: a failure leaves it empty.
        await copyPgliteIntoPostgres(dump, path.join(staging, 'pglite'), config.DATABASE_URL);
      } else if (config.DATABASE_URL) {
        // One transaction (--single-transaction, --exit-on-error): a failure rolls back to the old database.
        await restorePostgres(config.DATABASE_URL, dump, occupied.length > 0);
      } else {
        // Held until the swap, so a running DHR on this DATA_DIR refuses the restore instead of losing its files.
        lock = lockPgliteDir(pgliteDir(config));
        const fresh = `${pgliteDir(config)}.restoring-${suffix}`;
        made.push(fresh);
        await loadPglite(fresh, dump);
        pairs.unshift({ fresh, target: pgliteDir(config) });
      }
    } catch (err) {
      if (err instanceof BackupError || err instanceof DatabaseLockedError) throw err;
      throw new BackupError(`The restore failed: ${firstLine(err)}. ${NOTHING_CHANGED}`);
    }
    try {
      swapIn(pairs);
    } catch (err) {
      throw new BackupError(`The restore failed while putting the new copy in place: ${firstLine(err)}. ${NOTHING_CHANGED}`);
    }
    return manifest;
  } finally {
    lock?.release();
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
