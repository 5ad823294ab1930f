import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/button';

/** The heading of the community's operator pages, with the way back to the dashboard. */
export function AdminHeader({ title, description, children }: { title: string; description: string; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <p className="mb-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">Operator console</p>
        <h1 className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-mist-400 sm:text-base">{description}</p>
      </div>
      <div className="flex gap-2 self-start flex-wrap sm:self-auto">
        {children}
        <ButtonLink to="/admin-dashboard" variant="ghost" size="sm">
          <ArrowLeft className="size-4" aria-hidden="true" />
          Dashboard
        </ButtonLink>
      </div>
    </header>
  );
}
