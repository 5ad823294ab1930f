import { z } from 'zod';
import { emailSchema } from './auth';
import { textField, uuidField } from './text-field';

/** DJ submissions (docs/decisions/0018-live-monitor-shop-submissions.md). */

export const DJ_GENRES = ['deep-house', 'tech-house', 'progressive-house', 'melodic-house', 'organic-house', 'minimal-house'] as const;
export const DJ_GENRE_LABELS: Record<(typeof DJ_GENRES)[number], string> = {
  'deep-house': 'Deep House',
  'tech-house': 'Tech House',
  'progressive-house': 'Progressive House',
  'melodic-house': 'Melodic House',
  'organic-house': 'Organic House',
  'minimal-house': 'Minimal House',
};

export const SUBMISSION_STATUSES = ['new', 'listening', 'accepted', 'declined'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const SUBMISSION_MESSAGES = {
  required: 'Please fill in all required fields',
  invalidLink: 'Please enter a valid link to your mix (http:// or https://)',
  received: "Thanks! Your mix is in. We've emailed you a receipt and will review it within 5-7 days.",
  statusSaved: 'Submission updated',
} as const;

/** The fixed figures of the page. */
export const SUBMISSION_FIGURES = [
  { value: '247', label: 'Submissions' },
  { value: '89', label: 'Tracks Featured' },
  { value: '5-7 days', label: 'Review Time' },
  { value: '1.2K+', label: 'Active DJs' },
] as const;

const required = (max: number) => textField(max).trim().min(1, SUBMISSION_MESSAGES.required);
const optional = (max: number) =>
  textField(max)
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined));

/** A link to the mix (WeTransfer, Dropbox, SoundCloud...): http(s) only, so no javascript: or file: URL reaches a reviewer. */
export const mixLinkSchema = textField(2000)
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.includes('.');
    } catch {
      return false;
    }
  }, SUBMISSION_MESSAGES.invalidLink);

/** Body of POST /api/submissions. `website` is a honeypot: people leave it empty, form-filling bots do not. */
export const submissionBodySchema = z.strictObject({
  artistName: required(100),
  email: emailSchema,
  mixTitle: required(200),
  genre: z.enum(DJ_GENRES),
  duration: optional(50),
  description: required(2000),
  wetransferLink: mixLinkSchema,
  socialMedia: optional(300),
  previousReleases: optional(1000),
  website: textField(200).optional(),
});
export type SubmissionBody = z.input<typeof submissionBodySchema>;

export const submissionReceivedSchema = z.object({ message: z.string() });

export const submissionSchema = z.object({
  id: z.string(),
  artistName: z.string(),
  email: z.string(),
  mixTitle: z.string(),
  genre: z.string(),
  duration: z.string().nullable(),
  description: z.string(),
  wetransferLink: z.string(),
  socialMedia: z.string().nullable(),
  previousReleases: z.string().nullable(),
  status: z.enum(SUBMISSION_STATUSES),
  note: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Submission = z.infer<typeof submissionSchema>;
/** The review queue: at most 500 submissions, newest first, and how many match in all ("showing 500 of 510"). */
export const submissionListSchema = z.object({ submissions: z.array(submissionSchema), total: z.number().int().min(0) });
export type SubmissionList = z.infer<typeof submissionListSchema>;

export const submissionsQuerySchema = z.object({
  status: z.enum(SUBMISSION_STATUSES).optional(),
});

export const submissionIdParamsSchema = z.object({ id: uuidField() });

/** Body of PATCH /api/admin/submissions/:id: a new status and/or the reviewer's note. */
export const submissionUpdateSchema = z
  .strictObject({
    status: z.enum(SUBMISSION_STATUSES).optional(),
    note: textField(2000).trim().optional(),
  })
  .refine((b) => b.status !== undefined || b.note !== undefined, 'Nothing to change');
export type SubmissionUpdate = z.infer<typeof submissionUpdateSchema>;
