/** `s` made safe inside a double-quoted HTML attribute (the page HTML's canonical link and preloads). */
export function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
