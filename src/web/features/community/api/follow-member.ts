import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FollowResult, Profile } from '../../../../contracts/community';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

/** POST /api/users/{id}/follow or /unfollow (idempotent); answers the right counts. */
export async function setFollowing(input: { id: string; follow: boolean }): Promise<FollowResult> {
  return apiSend<FollowResult>('POST', `/api/users/${encodeURIComponent(input.id)}/${input.follow ? 'follow' : 'unfollow'}`);
}

export function useSetFollowing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setFollowing,
    onSuccess: (res, input) =>
      qc.setQueryData<Profile>(communityKeys.profile(input.id), (p) => (p ? { ...p, isFollowing: res.isFollowing, followerCount: res.followerCount } : p)),
  });
}
