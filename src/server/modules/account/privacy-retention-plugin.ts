import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { DAY_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import { runPrivacyRetention } from './privacy-retention';

/** Once a day: what the privacy page promises about how long DHR keeps addresses and page trails. */
const plugin: FastifyPluginAsync = async (app) => {
  runPeriodically(app, { name: 'privacy retention', everyMs: DAY_MS, run: () => runPrivacyRetention(app.database.db) });
};

export const privacyRetentionPlugin = fp(plugin, { name: 'privacy-retention' });
