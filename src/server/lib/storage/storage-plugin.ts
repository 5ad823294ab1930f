import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { LocalMediaStorage } from './local-storage';
import type { MediaStorage } from './media-storage';

declare module 'fastify' {
  interface FastifyInstance {
    mediaStorage: MediaStorage;
  }
}

/** The media storage the configuration asks for: files under DATA_DIR/media. */
export function createMediaStorage(config: Pick<Config, 'dataDir'>): MediaStorage {
  return new LocalMediaStorage(path.join(config.dataDir, 'media'));
}

/** Decorates the app with `mediaStorage`; `storage` replaces the configured one (tests). */
export const mediaStoragePlugin = fp(async (app: FastifyInstance, opts: { storage?: MediaStorage }) => {
  app.decorate('mediaStorage', opts.storage ?? createMediaStorage(app.config));
});
