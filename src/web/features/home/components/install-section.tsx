import { CheckCircle2, Download, Monitor, Smartphone } from 'lucide-react';
import { useState, type ComponentType, type SVGProps } from 'react';
import { AppleIcon, GooglePlayIcon } from '../../../components/ui/brand-icons';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { cn } from '../../../lib/cn';
import { promptInstall, useInstallState } from '../../../lib/install-prompt';

type Platform = 'ios' | 'android' | 'desktop';

const PLATFORMS: { id: Platform; label: string; Icon: ComponentType<SVGProps<SVGSVGElement>>; steps: string[] }[] = [
  {
    id: 'ios',
    label: 'iPhone & iPad',
    Icon: AppleIcon,
    steps: [
      'Open this page in Safari.',
      'Tap the Share button at the bottom of the screen.',
      'Scroll down and tap “Add to Home Screen”.',
      'Tap “Add”: DHR appears on your home screen.',
    ],
  },
  {
    id: 'android',
    label: 'Android',
    Icon: Smartphone,
    steps: [
      'Open this page in Chrome.',
      'Tap the ⋮ menu in the top right corner.',
      'Tap “Install app” (or “Add to Home screen”).',
      'Confirm with “Install”: DHR opens like any other app.',
    ],
  },
  {
    id: 'desktop',
    label: 'Desktop',
    Icon: Monitor,
    steps: [
      'Open this page in Chrome or Edge.',
      'Click the install icon at the right end of the address bar (or open the browser menu and choose “Install Deep House Radio”).',
      'Confirm with “Install”: DHR opens in its own window and stays in your dock or taskbar.',
    ],
  },
];

function guessPlatform(): Platform {
  const ua = navigator.userAgent;
  if (/iPhone|iPad|iPod/i.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1)) return 'ios';
  if (/Android/i.test(ua)) return 'android';
  return 'desktop';
}

/** Web-app installation: the browser's own prompt where it offers one, instructions everywhere. */
export function InstallSection() {
  const [platform, setPlatform] = useState<Platform>(guessPlatform);
  const { canPrompt, installed } = useInstallState();
  const current = PLATFORMS.find((p) => p.id === platform) ?? PLATFORMS[0]!;

  return (
    <section id="install" aria-labelledby="install-heading">
      <PageContainer width="wide">
        <Card padding="lg" className="grid gap-10 overflow-hidden lg:grid-cols-[1fr_1.1fr] lg:items-center">
          <div>
            <SectionHeading
              id="install-heading"
              eyebrow="Web app"
              title="Take DHR Everywhere"
              description="Install Deep House Radio on your phone or computer: one tap to the live stream, its own window, no app store needed."
            />
            {installed ? (
              <p className="mt-8 inline-flex items-center gap-2 rounded-full bg-emerald-500/10 px-4 py-2 text-sm font-medium text-emerald-300">
                <CheckCircle2 className="size-4" aria-hidden="true" /> You are using the installed app
              </p>
            ) : (
              canPrompt && (
                <Button className="mt-8" onClick={() => void promptInstall()}>
                  <Download className="size-4" aria-hidden="true" /> Install App
                </Button>
              )
            )}
            <div className="mt-8">
              <p className="text-xs font-semibold tracking-[0.25em] text-mist-500 uppercase">Native apps</p>
              <div className="mt-3 flex flex-wrap gap-3">
                {[
                  { label: 'App Store', Icon: AppleIcon },
                  { label: 'Google Play', Icon: GooglePlayIcon },
                ].map(({ label, Icon }) => (
                  <div key={label} className="flex items-center gap-3 rounded-2xl bg-white/[0.03] px-4 py-2.5 ring-1 ring-white/10">
                    <Icon className="size-6 text-mist-300" />
                    <span className="flex flex-col leading-tight">
                      <span className="text-[0.65rem] tracking-wide text-mist-500 uppercase">Coming soon</span>
                      <span className="text-sm font-semibold text-mist-100">{label}</span>
                    </span>
                  </div>
                ))}
              </div>
            </div>
          </div>

          <div>
            <div role="tablist" aria-label="Install instructions" className="grid grid-cols-3 gap-1 rounded-2xl bg-night-950/60 p-1 ring-1 ring-white/5">
              {PLATFORMS.map(({ id, label, Icon }) => (
                <button
                  key={id}
                  type="button"
                  role="tab"
                  id={`install-tab-${id}`}
                  aria-selected={platform === id}
                  aria-controls="install-steps"
                  onClick={() => setPlatform(id)}
                  className={cn(
                    'flex min-w-0 flex-col items-center gap-1 rounded-xl px-2 py-2.5 text-xs font-semibold transition sm:flex-row sm:justify-center sm:gap-2 sm:text-sm',
                    platform === id ? 'bg-white/10 text-white shadow-inner' : 'text-mist-400 hover:text-white',
                  )}
                >
                  <Icon className="size-4 shrink-0" aria-hidden="true" />
                  <span className="truncate">{label}</span>
                </button>
              ))}
            </div>
            <div id="install-steps" role="tabpanel" aria-labelledby={`install-tab-${current.id}`} className="mt-6">
              <ol className="space-y-4">
                {current.steps.map((step, i) => (
                  <li key={step} className="flex gap-4">
                    <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-deep-500/40 to-aqua-500/40 text-xs font-bold text-white">
                      {i + 1}
                    </span>
                    <span className="pt-0.5 text-sm leading-relaxed text-mist-200">{step}</span>
                  </li>
                ))}
              </ol>
            </div>
          </div>
        </Card>
      </PageContainer>
    </section>
  );
}
