/** Session time as the monitor shows it: 'Nh Nm', e.g. '0h 5m', '2h 14m'. */
export function formatSessionTime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** 'Dublin, IE', 'IE', or 'Unknown'. */
export function formatPlace(city: string | null, country: string | null): string {
  if (city && country) return `${city}, ${country}`;
  return country ?? city ?? 'Unknown';
}
