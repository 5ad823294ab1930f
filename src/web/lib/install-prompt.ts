import { useSyncExternalStore } from 'react';

/** Chromium's install event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
let installed = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Call once at start-up: keeps the browser's install offer until a button uses it. */
export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep the browser's own mini-infobar away; our buttons offer installation instead.
    e.preventDefault();
    deferred = e as BeforeInstallPromptEvent;
    emit();
  });
  window.addEventListener('appinstalled', () => {
    installed = true;
    deferred = null;
    emit();
  });
}

function isStandalone(): boolean {
  return installed || window.matchMedia('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

export interface InstallState {
  /** The browser can show its install dialog now (Chromium on Android and desktop). */
  canPrompt: boolean;
  /** Already running as an installed app. */
  installed: boolean;
}

let snapshot: InstallState = { canPrompt: false, installed: false };
function getSnapshot(): InstallState {
  const next = { canPrompt: deferred !== null, installed: isStandalone() };
  if (next.canPrompt !== snapshot.canPrompt || next.installed !== snapshot.installed) snapshot = next;
  return snapshot;
}
const serverSnapshot: InstallState = { canPrompt: false, installed: false };

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(subscribe, getSnapshot, () => serverSnapshot);
}

/** Shows the browser's install dialog; resolves to whether the visitor accepted. */
export async function promptInstall(): Promise<boolean> {
  const event = deferred;
  if (!event) return false;
  deferred = null;
  emit();
  try {
    await event.prompt();
    const choice = await event.userChoice;
    return choice.outcome === 'accepted';
  } catch (err) {
    // The browser may refuse a second prompt from the same event; the instructions remain.
    console.warn('Install prompt failed', err);
    return false;
  }
}
