import type { z } from 'zod';
import { PROFILE_MESSAGES, type FollowResult, type Profile, type updateProfileSchema } from '../../../contracts/community';
import { effectiveTier } from '../../../contracts/tier-policy';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { countApprovedComments } from '../comments/comments-repository';
import { findMemberById } from '../members/members-repository';
import { badgesOf, maySeeProfile, reputationOf, verificationOf } from './profile-rules';
import { addFollow, findProfile, followCounts, isFollowing, removeFollow, saveProfile } from './profiles-repository';

/** The member behind `id` when `viewer` may see their profile; otherwise 404 'Profile not found' (never a hint that it exists). */
async function visibleMember(db: Db, id: string, viewer: UserRow | null): Promise<UserRow> {
  const member = await findMemberById(db, id);
  const profile = member ? await findProfile(db, member.id) : null;
  if (!member || !maySeeProfile(profile?.profileVisibility ?? 'public', member.id, viewer)) throw notFound(PROFILE_MESSAGES.notFound);
  return member;
}

export async function readProfile(db: Db, id: string, viewer: UserRow | null): Promise<Profile> {
  const member = await visibleMember(db, id, viewer);
  const [profile, counts, approvedComments, following] = await Promise.all([
    findProfile(db, member.id),
    followCounts(db, member.id),
    countApprovedComments(db, member.id),
    viewer && viewer.id !== member.id ? isFollowing(db, viewer.id, member.id) : Promise.resolve(false),
  ]);
  const badges = badgesOf(member);
  const verification = verificationOf(member);
  const isOwner = viewer?.id === member.id;
  const seesSettings = isOwner || viewer?.isAdmin === true;
  return {
    id: member.id,
    username: member.username,
    profileImageUrl: profile?.profileImageUrl ?? null,
    profileBannerUrl: profile?.profileBannerUrl ?? null,
    subscriptionTier: effectiveTier(member),
    isVerified: verification !== null,
    verificationMethod: verification,
    followerCount: counts.followerCount,
    followingCount: counts.followingCount,
    reputationScore: reputationOf({ approvedComments, followers: counts.seasonedFollowerCount, supporter: badges.includes('Supporter') }),
    badgeCount: badges.length,
    badges,
    commentCount: approvedComments,
    bio: profile?.bio ?? null,
    location: profile?.location ?? null,
    website: profile?.website ?? null,
    joinDate: member.createdAt.toISOString(),
    favoriteGenres: profile?.favoriteGenres ?? [],
    isFollowing: following,
    isOwner,
    emailNotifications: seesSettings ? (profile?.emailNotifications ?? true) : null,
    chatNotifications: seesSettings ? (profile?.chatNotifications ?? true) : null,
    profileVisibility: seesSettings ? (profile?.profileVisibility ?? 'public') : null,
  };
}

/** The owner or an admin changes the profile's own fields (never name, tier, verification or counts). */
export async function updateProfile(db: Db, id: string, editor: UserRow, body: z.output<typeof updateProfileSchema>): Promise<Profile> {
  if (editor.id !== id && !editor.isAdmin) throw forbidden(PROFILE_MESSAGES.notOwner, 'not_owner');
  const member = await findMemberById(db, id);
  if (!member) throw notFound(PROFILE_MESSAGES.notFound);
  await saveProfile(db, member.id, body);
  return readProfile(db, member.id, editor);
}

export async function setFollowing(db: Db, follower: UserRow, id: string, follow: boolean): Promise<FollowResult> {
  if (follower.id === id) throw badRequest(PROFILE_MESSAGES.followSelf, 'follow_self');
  const member = await visibleMember(db, id, follower);
  if (follow) await addFollow(db, follower.id, member.id);
  else await removeFollow(db, follower.id, member.id);
  const { followerCount, followingCount } = await followCounts(db, member.id);
  return { isFollowing: follow, followerCount, followingCount };
}
