import { useMutation } from '@tanstack/react-query';
import { patreonAuthorizeReplySchema } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';

/** Connect Patreon, step 1: the authorize URL (with the session's state) the browser goes to. */
export const startPatreonConnect = async () => patreonAuthorizeReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/patreon/authorize')).url;

export const useStartPatreonConnect = () => useMutation({ mutationFn: startPatreonConnect, onSuccess: (url) => window.location.assign(url) });
