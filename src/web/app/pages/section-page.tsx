import { lazy, type ReactElement } from 'react';
import type { SectionPath } from './sections';

const SectionPlaceholder = lazy(() => import('./section-placeholder'));

/** The route element of a section whose page is not built yet: its title and what it is for. */
export function sectionPage(path: SectionPath): ReactElement {
  return <SectionPlaceholder path={path} />;
}
