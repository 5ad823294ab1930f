import { useMutation } from '@tanstack/react-query';
import { vipMixListSchema } from '../../../../contracts/mixes';
import { apiGet } from '../../../lib/http';

/** The System Status test button: GET /api/vip/mixes answers, and with how many mixes. */
export async function testVipMixes(): Promise<number> {
  const parsed = vipMixListSchema.safeParse(await apiGet<unknown>('/api/vip/mixes'));
  if (!parsed.success) throw new Error('unexpected reply (not a list of mixes)');
  return parsed.data.length;
}

export function useTestVipMixes() {
  return useMutation({ mutationFn: testVipMixes });
}
