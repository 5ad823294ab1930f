/** Sharing the station: pop-ups for X and Facebook, copy-to-clipboard for Instagram. */
export const SHARE_TEXT = 'Tune in to Deep House Radio: live deep house, 24/7 🎧';
export const INSTAGRAM_COPIED_ALERT = 'Link Copied To Clipboard! Share It On Instagram.';

/** The page being shared, without query string or hash. */
export function currentShareUrl(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

export function shareTargetUrl(network: 'x' | 'facebook', url: string, text: string = SHARE_TEXT): string {
  const u = encodeURIComponent(url);
  return network === 'x' ? `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${u}` : `https://www.facebook.com/sharer/sharer.php?u=${u}`;
}

/** Opens the network's share page in a 600x400 pop-up window, centred over the current one. */
export function openSharePopup(network: 'x' | 'facebook', url: string = currentShareUrl()): void {
  const width = 600;
  const height = 400;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  const popup = window.open(
    shareTargetUrl(network, url),
    `dhr-share-${network}`,
    `width=${width},height=${height},left=${left},top=${top},menubar=no,toolbar=no,resizable=yes,scrollbars=yes`,
  );
  // The share page must not script this window.
  if (popup) popup.opener = null;
}

/** Copies text; falls back to a hidden textarea where the async clipboard is unavailable (plain http). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** Instagram has no share URL: copy the link with a line of text, then say so. */
export async function shareToInstagram(url: string = currentShareUrl()): Promise<void> {
  const ok = await copyText(`${SHARE_TEXT} ${url}`);
  window.alert(ok ? INSTAGRAM_COPIED_ALERT : `Copy this link to share it on Instagram: ${url}`);
}
