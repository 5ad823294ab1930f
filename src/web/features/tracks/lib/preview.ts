/** The collapsed Recent Tracks card shows the newest title cut to 20 characters. */
export const LATEST_PREVIEW_CHARS = 20;

export function latestPreview(title: string): string {
  return title.length > LATEST_PREVIEW_CHARS ? `${title.slice(0, LATEST_PREVIEW_CHARS)}...` : title;
}
