-- Issue 24: a mix's link is a media storage key only. Outside URLs were handed to every member as a
-- redirect; they are cleared (the admin sees 'Not set' and uploads or links a stored file).
-- Independent of any other migration: it touches vip_mixes.s3_url only.
UPDATE "vip_mixes" SET "s3_url" = NULL
WHERE "s3_url" IS NOT NULL
  AND ("s3_url" !~ '^mixes/[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.(mp3|m4a|aac|flac|wav)$' OR "s3_url" LIKE '%..%');
