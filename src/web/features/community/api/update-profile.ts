import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile, UpdateProfileBody } from '../../../../contracts/community';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

/** PATCH /api/users/{id}/profile (owner or admin): answers the whole profile. */
export async function updateProfile(input: { id: string; changes: UpdateProfileBody }): Promise<Profile> {
  return apiSend<Profile>('PATCH', `/api/users/${encodeURIComponent(input.id)}/profile`, input.changes);
}

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (profile) => qc.setQueryData(communityKeys.profile(profile.id), profile) });
}
