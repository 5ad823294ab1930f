import type { supporterActionReplySchema } from '../../../../contracts/supporters';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** Unlinks the member's Patreon; the access it gave ends. */
export const disconnectPatreon = async () => await apiSend<ReplyOf<typeof supporterActionReplySchema>>('DELETE', '/api/supporters/patreon');

export const useDisconnectPatreon = () => useLinkMutation(disconnectPatreon);
