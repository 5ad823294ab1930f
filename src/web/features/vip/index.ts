// The VIP feature's public surface.
export { vipMixesQueryOptions } from './api/get-vip-mixes';
