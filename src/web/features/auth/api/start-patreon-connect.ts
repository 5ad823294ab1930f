import { useMutation } from '@tanstack/react-query';
import type { patreonAuthorizeReplySchema } from '../../../../contracts/supporters';
import { apiSend, type ReplyOf } from '../../../lib/http';

/** Connect Patreon, step 1: the authorize URL (with the session's state) the browser goes to. */
export const startPatreonConnect = async () => (await apiSend<ReplyOf<typeof patreonAuthorizeReplySchema>>('POST', '/api/supporters/patreon/authorize')).url;

export const useStartPatreonConnect = () => useMutation({ mutationFn: startPatreonConnect, onSuccess: (url) => window.location.assign(url) });
