import { useMutation } from '@tanstack/react-query';
import type { Recommendation, RecommendationRequest } from '../../../../contracts/radio';
import { apiSend } from '../../../lib/http';

/** POST /api/tracks/recommendations: at most 3 tracks from the station's own history. */
export async function getRecommendations(body: RecommendationRequest): Promise<Recommendation[]> {
  return apiSend<Recommendation[]>('POST', '/api/tracks/recommendations', body);
}

/** Failures are only logged and the list stays as it was. */
export function useRecommendations() {
  return useMutation({
    mutationFn: getRecommendations,
    onError: (err) => console.warn('Track recommendations failed:', err),
  });
}
