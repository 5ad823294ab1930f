/**
 * One backup archive (a .tar.gz): manifest.json, the database (PGlite's data directory as a gzipped
 * tar, or pg_dump's custom format) and the local media files, each with its SHA-256 in the manifest.
 * `npm run backup` and `npm run restore` are thin command lines around createBackup and restoreBackup.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Config } from '../../src/server/config';
import { acquireDirLock } from '../../src/server/db/dir-lock';
import { dumpPglite, dumpPostgres, loadPglite, pgliteExists, postgresTableCount, postgresVersion, restorePostgres } from '../../src/server/db/backup';

const run = promisify(execFile);
const FORMAT = 'dhr-backup';

const fileEntrySchema = z.object({ path: z.string(), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
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

/** Writes the archive to `out`; returns its manifest. */
export async function createBackup(config: Config, out: string): Promise<BackupManifest> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-backup-'));
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
        fs.copyFileSync(path.join(mediaDir(config), rel), path.join(staging, 'media', rel));
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
    fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    // Written beside the target and renamed: an interrupted backup never leaves a truncated archive under the name.
    const partial = `${path.resolve(out)}.partial`;
    await run('tar', ['-czf', partial, '-C', staging, '.']);
    fs.renameSync(partial, out);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Unpacks the archive and checks its manifest and every checksum before anything is restored. */
async function unpack(file: string, into: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new BackupError(`No backup at ${file}.`);
  try {
    await run('tar', ['-xzf', file, '-C', into]);
  } catch {
    throw new BackupError(`${file} is not a DHR backup (it does not unpack as .tar.gz).`);
  }
  let manifest: BackupManifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(into, 'manifest.json'), 'utf8')));
  } catch {
    throw new BackupError(`${file} is not a DHR backup (no readable manifest.json).`);
  }
  const entries = [manifest.database, ...manifest.media.files.map((f) => ({ ...f, path: `media/${f.path}` }))];
  for (const e of entries) {
    const target = path.resolve(into, e.path);
    if (!target.startsWith(path.resolve(into) + path.sep) || !fs.existsSync(target) || (await sha256(target)) !== e.sha256) {
      throw new BackupError(`The backup is damaged: ${e.path} is missing or does not match its checksum. Nothing was restored.`);
    }
  }
  return manifest;
}

/**
 * Restores the archive into the configured DATA_DIR (or DATABASE_URL). A target that already holds a
 * database or media is refused unless `force`, which replaces them.
 */
export async function restoreBackup(config: Config, file: string, force: boolean): Promise<BackupManifest> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-restore-'));
  try {
    const manifest = await unpack(file, staging);
    const wantsPostgres = manifest.database.kind === 'postgresql';
    if (wantsPostgres !== Boolean(config.DATABASE_URL)) {
      throw new BackupError(
        wantsPostgres
          ? 'This backup holds a PostgreSQL database: set DATABASE_URL to an empty database to restore it into.'
          : 'This backup holds a PGlite database: unset DATABASE_URL and set DATA_DIR to an empty directory to restore it into.',
      );
    }
    const media = mediaDir(config);
    const occupied: string[] = [];
    if (config.DATABASE_URL && (await postgresTableCount(config.DATABASE_URL)) > 0) occupied.push('the database at DATABASE_URL has tables');
    if (!config.DATABASE_URL && pgliteExists(pgliteDir(config))) occupied.push(`${pgliteDir(config)} holds a database`);
    if (manifest.media.kind === 'local' && filesUnder(media).length > 0) occupied.push(`${media} holds files`);
    if (occupied.length && !force) {
      throw new BackupError(
        `Refused: ${occupied.join('; ')}. Restore into an empty DATA_DIR or database, or add --force to replace them. Nothing was changed.`,
      );
    }
    const dump = path.join(staging, manifest.database.path);
    if (config.DATABASE_URL) {
      await restorePostgres(config.DATABASE_URL, dump, occupied.length > 0);
    } else {
      const dir = pgliteDir(config);
      if (pgliteExists(dir)) {
        // Held while the old directory goes, so a running DHR on it refuses the restore instead of losing its files.
        const lock = acquireDirLock(path.join(dir, '..', 'db.lock'), dir);
        fs.rmSync(dir, { recursive: true, force: true });
        lock.release();
      }
      await loadPglite(dir, dump);
    }
    if (manifest.media.kind === 'local') {
      fs.rmSync(media, { recursive: true, force: true });
      for (const f of manifest.media.files) {
        const target = path.join(media, f.path);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.copyFileSync(path.join(staging, 'media', f.path), target);
      }
    }
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
