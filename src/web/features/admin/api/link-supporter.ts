import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import type { LinkSupporterBody } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';
import { adminKeys } from './keys';

/** Links an unmatched supporter's record to an existing member (who gets its tier at once). */
export const linkSupporter = (body: LinkSupporterBody) => apiSend<MessageReply>('POST', '/api/admin/supporters/link', body);

export function useLinkSupporter() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: linkSupporter, onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }) });
}
