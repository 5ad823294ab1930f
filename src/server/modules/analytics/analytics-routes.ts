import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  musicReportQuerySchema,
  overviewQuerySchema,
  overviewSchema,
  rebuildBodySchema,
  summaryQuerySchema,
  summarySchema,
} from '../../../contracts/analytics';
import { overview } from './overview-service';
import { access } from '../../plugins/access';
import { mediaReply, noContentReply } from '../../plugins/reply-schemas';
import type { NowPlaying } from '../radio/now-playing';
import { musicReport, musicReportCsv, reportRange } from './music-report';
import { runInBackground } from '../../db/lanes';
import { checkRebuildable } from './rollups-service';
import { runRollupOffTheServer } from './rollup-process';
import { monthSummary } from './summary-service';

/** The analytics reads and the rebuild of a past day: admins only, every answer fresh (no-store). */
export const analyticsRoutes: FastifyPluginAsyncZod<{ nowPlaying: NowPlaying }> = async (app, { nowPlaying }) => {
  const admin = { access: access.admin };

  app.get(
    '/api/admin/analytics/summary',
    { config: admin, schema: { summary: "A month's figures against the month before", querystring: summaryQuerySchema, response: { 200: summarySchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return monthSummary(app.database.db, req.query.month);
    },
  );

  app.get(
    '/api/admin/analytics/overview',
    {
      config: admin,
      schema: { summary: 'What the analytics page draws for a range of days', querystring: overviewQuerySchema, response: { 200: overviewSchema } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return overview(app.database.db, req.query.from, req.query.to);
    },
  );

  app.get(
    '/api/admin/analytics/music-report.csv',
    {
      config: admin,
      schema: {
        summary: 'Each identified track play with its aggregate tuning hours, as CSV',
        querystring: musicReportQuerySchema,
        response: { 200: mediaReply('text/csv', 'One line per play: channel, start, end, artist, title, ISRC, plays, tuning hours.') },
      },
    },
    async (req, reply) => {
      const { from, to } = reportRange(req.query.from, req.query.to);
      const channel = req.query.channel && (await nowPlaying.knownChannel(req.query.channel));
      const lines = await runInBackground(() => musicReport(app.database.db, from, to, channel));
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="dhr-music-report-${req.query.from}-${req.query.to}${channel ? `-${channel}` : ''}.csv"`)
        .send(musicReportCsv(lines));
    },
  );

  app.post(
    '/api/admin/analytics/rebuild',
    { config: admin, schema: { summary: "Rebuilds a past day's rollups from its sessions", body: rebuildBodySchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      // A rebuild is a job an operator starts: background lane, so no listener waits on it (ADR 0034).
      checkRebuildable(req.body.day);
      await runInBackground(() => runRollupOffTheServer(app.database, app.config.DATABASE_URL, { kind: 'day', day: req.body.day }));
      return reply.status(204).send();
    },
  );
};
