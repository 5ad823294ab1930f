import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SUBMISSION_MESSAGES,
  submissionBodySchema,
  submissionIdParamsSchema,
  submissionListSchema,
  submissionReceivedSchema,
  submissionSchema,
  submissionsQuerySchema,
  submissionUpdateSchema,
  type Submission,
} from '../../../contracts/submissions';
import type { DjSubmissionRow, UserRow } from '../../db/schema';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { decisionMail, receiptMail, stationMail } from './submission-mails';
import { insertSubmission, listSubmissions } from './submissions-repository';
import { reviewSubmission } from './submissions-service';

/** The admin review page (src/contracts/routes.ts). */
export const SUBMISSIONS_REVIEW_PATH = '/admin/submissions';
const LIST_MAX = 500;

/**
 * DJ submissions (docs/decisions/0018-live-monitor-shop-submissions.md): posted, stored, mailed to the
 * station and the DJ, reviewed by admins; the DJ hears of the decision by mail.
 */
export const submissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.post(
    '/api/submissions',
    { config: { access: access.public }, schema: { summary: 'Submit a DJ mix', body: submissionBodySchema, response: { 201: submissionReceivedSchema } } },
    async (req, reply) => {
      const { website, ...form } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.submission, form.email);
      // The honeypot was filled: a bot. It gets the same answer and nothing is stored or mailed.
      if (website) return reply.status(201).send({ message: SUBMISSION_MESSAGES.received });
      const row = await insertSubmission(db, {
        ...form,
        duration: form.duration ?? null,
        socialMedia: form.socialMedia ?? null,
        previousReleases: form.previousReleases ?? null,
      });
      const station = app.config.CONTACT_EMAIL;
      if (station) app.mailer.sendLater(async () => stationMail(station, row, `${app.config.PUBLIC_URL}${SUBMISSIONS_REVIEW_PATH}`));
      else req.log.warn('CONTACT_EMAIL is not set: the submission is stored for the admins but not mailed to the station');
      app.mailer.sendLater(async () => receiptMail(row, app.config.PUBLIC_URL));
      return reply.status(201).send({ message: SUBMISSION_MESSAGES.received });
    },
  );

  app.get(
    '/api/admin/submissions',
    {
      config: { access: access.admin },
      schema: { summary: 'The DJ mix submissions', querystring: submissionsQuerySchema, response: { 200: submissionListSchema } },
    },
    async (req) => {
      const { rows, total } = await listSubmissions(db, req.query.status, LIST_MAX);
      return { submissions: rows.map(toSubmission), total };
    },
  );

  app.patch(
    '/api/admin/submissions/:id',
    {
      config: { access: access.admin },
      schema: { summary: 'Review a DJ mix submission', params: submissionIdParamsSchema, body: submissionUpdateSchema, response: { 200: submissionSchema } },
    },
    async (req) => {
      const { row, decided } = await reviewSubmission(db, req.params.id, req.body, (req.user as UserRow).id);
      if (decided) app.mailer.sendLater(async () => decisionMail(row, decided, app.config.PUBLIC_URL));
      return toSubmission(row);
    },
  );
};

function toSubmission(r: DjSubmissionRow): Submission {
  return {
    id: r.id,
    artistName: r.artistName,
    email: r.email,
    mixTitle: r.mixTitle,
    genre: r.genre,
    duration: r.duration,
    description: r.description,
    wetransferLink: r.wetransferLink,
    socialMedia: r.socialMedia,
    previousReleases: r.previousReleases,
    status: r.status,
    note: r.note,
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}
