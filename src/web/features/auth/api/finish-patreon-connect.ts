import type { supporterActionReplySchema, PatreonCallbackBody } from '../../../../contracts/supporters';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** Connect Patreon, step 2, on the return page: what Patreon appended goes to the server. */
export const finishPatreonConnect = async (body: PatreonCallbackBody) =>
  await apiSend<ReplyOf<typeof supporterActionReplySchema>>('POST', '/api/supporters/patreon/callback', body);

export const useFinishPatreonConnect = () => useLinkMutation(finishPatreonConnect);
