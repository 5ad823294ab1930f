/** `s` made safe inside a double-quoted HTML attribute (the page HTML's canonical link and preloads). */
export function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** `s` made safe as HTML text or inside a double-quoted attribute (server-rendered pages). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
