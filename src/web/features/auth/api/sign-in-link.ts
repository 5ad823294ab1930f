import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthReply, LinkPreviewReply, TokenBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/magic/preview: whose account the link opens (uses nothing up). */
export const previewSignInLink = (body: TokenBody) => apiSend<LinkPreviewReply>('POST', '/api/auth/magic/preview', body);

const PREVIEW_KEY = '/api/auth/magic/preview';

export const useSignInLinkPreview = (token: string) =>
  useQuery({
    queryKey: [PREVIEW_KEY, token],
    queryFn: () => previewSignInLink({ token }),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
  });

/** POST /api/auth/magic: signs in with the link's token (the member pressed the button). */
export const signInWithLink = (body: TokenBody) => apiSend<AuthReply>('POST', '/api/auth/magic', body);

/** Signs in, then refreshes every cached read but the preview (the link is used up now). */
export function useSignInWithLink() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: signInWithLink,
    onSuccess: () => qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== PREVIEW_KEY }),
  });
}
