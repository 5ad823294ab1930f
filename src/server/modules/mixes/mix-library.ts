import type { FastifyInstance } from 'fastify';
import { ChangeNotices } from '../../lib/cached-read';
import { RenditionWorker } from './rendition-service';

/** NOTIFY channel: the library changed (a mix added, edited, deleted, or downloaded); every instance drops its list. */
export const VIP_MIXES_CHANNEL = 'vip_mixes_changed';
/** The mix library's objects other parts of the app hold, made once by the composition root (modules/index.ts). */
export interface Mixes {
  /** The library changed (here and on the other instances). */
  changes: ChangeNotices;
  /** Makes the mixes' listening copies; tests call drain() themselves (background jobs are off there). */
  renditions: RenditionWorker;
}

export function createMixes(app: FastifyInstance): Mixes {
  const changes = new ChangeNotices(app, VIP_MIXES_CHANNEL);
  const announceChange = () => changes.announce();
  const renditions = new RenditionWorker({ db: app.database.db, storage: app.mediaStorage, ffmpeg: app.config.FFMPEG_PATH, announceChange, log: app.log });
  return { changes, renditions };
}
