/**
 * Casting: the Remote Playback API when the browser has it; otherwise the system share
 * dialog; otherwise manual steps. Cancelling or failing shows the steps for this device.
 */

/** The steps' text loads when it is shown: most of casting's code, and rarely needed. */
async function showSteps(which: 'device' | 'manual'): Promise<void> {
  const steps = await import('./cast-steps');
  window.alert(which === 'manual' ? steps.MANUAL_CAST_STEPS : steps.castInstructions());
}

interface RemotePlaybackLike {
  prompt: () => Promise<void>;
}

export async function castStream(audio: HTMLAudioElement | null, share: { title: string; url: string }): Promise<void> {
  const remote = (audio as (HTMLAudioElement & { remote?: RemotePlaybackLike }) | null)?.remote;
  if (audio && remote && typeof remote.prompt === 'function') {
    try {
      await remote.prompt();
    } catch {
      // NotFoundError (no device), NotSupportedError (this stream), AbortError (cancelled)
      await showSteps('device');
    }
    return;
  }
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: share.title, text: `Listen to ${share.title} live`, url: share.url });
    } catch {
      await showSteps('device');
    }
    return;
  }
  await showSteps('manual');
}
