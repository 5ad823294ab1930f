/** The spec's alerts (§8): one place, so every community message reaches the member the same way. */
export function notify(message: string): void {
  window.alert(message);
}
