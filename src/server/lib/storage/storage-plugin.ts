import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { LocalMediaStorage } from './local-storage';
import type { MediaStorage } from './media-storage';
import { S3MediaStorage } from './s3-storage';

declare module 'fastify' {
  interface FastifyInstance {
    mediaStorage: MediaStorage;
  }
}

type StorageConfig = Pick<Config, 'dataDir' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'>;

/** The media storage the configuration asks for: the S3 bucket when S3_BUCKET is set, else files under DATA_DIR/media. */
export function createMediaStorage(config: StorageConfig): MediaStorage {
  if (config.S3_BUCKET) {
    return new S3MediaStorage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return new LocalMediaStorage(path.join(config.dataDir, 'media'));
}

/** Decorates the app with `mediaStorage`; `storage` replaces the configured one (tests). */
export const mediaStoragePlugin = fp(async (app: FastifyInstance, opts: { storage?: MediaStorage }) => {
  app.decorate('mediaStorage', opts.storage ?? createMediaStorage(app.config));
});
