import { supporterActionReplySchema } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** Unlinks the member's Patreon; the access it gave ends. */
export const disconnectPatreon = async () => supporterActionReplySchema.parse(await apiSend<unknown>('DELETE', '/api/supporters/patreon'));

export const useDisconnectPatreon = () => useLinkMutation(disconnectPatreon);
