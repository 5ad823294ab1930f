import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRecommendations } from './get-recommendations';
import { MINUTE_MS } from '../../../../contracts/time';

/** Suggestions for one track, cached per track (the same call as 'Find Similar Tracks'). */
export const suggestionsQueryOptions = (channel: string, track: { artist: string; title: string } | null) =>
  queryOptions({
    queryKey: ['/api/tracks/recommendations', channel, track?.artist ?? '', track?.title ?? ''],
    queryFn: async () => {
      try {
        return await getRecommendations({ artist: track?.artist ?? '', title: track?.title ?? '', channel });
      } catch (err) {
        // Recommendation failures are only logged.
        console.warn('Track recommendations failed:', err);
        return [];
      }
    },
    enabled: track !== null,
    staleTime: 10 * MINUTE_MS,
    retry: false,
  });

export const useSuggestions = (channel: string, track: { artist: string; title: string } | null) => useQuery(suggestionsQueryOptions(channel, track));
