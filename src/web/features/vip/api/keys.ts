/** Query keys of the VIP feature: each is the path it reads. */
export const vipKeys = {
  mixes: ['/api/vip-mixes'] as const,
  adminMixes: ['/api/admin/vip-mixes'] as const,
  storageStatus: ['/api/admin/storage-status'] as const,
};
