/** The community's alerts: one place, so every community message reaches the member the same way. */
export function notify(message: string): void {
  window.alert(message);
}
