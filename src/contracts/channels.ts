import { z } from 'zod';
import { tierSchema } from './member-schemas';

export const channelSchema = z.object({
  id: z.string(),
  name: z.string(),
  colour: z.string(),
  streamUrl: z.string(),
  bitrateLabel: z.string(),
  requiredTier: tierSchema,
});
export type Channel = z.infer<typeof channelSchema>;
export const channelListSchema = z.array(channelSchema);
