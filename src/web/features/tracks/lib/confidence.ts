import { CONFIDENCE_IDENTIFIED, CONFIDENCE_MEDIUM, METADATA_SERVICE } from '../../../../contracts/radio-values';

/** Green 80+, yellow 50-79, red below 50. */
export function confidenceTone(confidence: number): 'green' | 'yellow' | 'red' {
  if (confidence >= CONFIDENCE_IDENTIFIED) return 'green';
  if (confidence >= CONFIDENCE_MEDIUM) return 'yellow';
  return 'red';
}

export const CONFIDENCE_TEXT = { green: 'text-emerald-300', yellow: 'text-amber-300', red: 'text-rose-300' } as const;

/** Identified only when recognised by a service (not the stream metadata) at 80% or more. */
export function isIdentified(track: { service: string; confidence: number }): boolean {
  return track.service !== METADATA_SERVICE && track.confidence >= CONFIDENCE_IDENTIFIED;
}

export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence)}%`;
}
