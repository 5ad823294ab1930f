import { lazy, type ReactElement } from 'react';
import { access, type AccessPolicy } from '../../../contracts/access-policy';
import type { SectionPath } from './sections';

const SectionPlaceholder = lazy(() => import('./section-placeholder'));

/**
 * The route element of a section whose page is not built yet: its title and what it is for, behind
 * the access policy its page will have (the gate loads with the placeholder, not in the first load).
 */
export function sectionPage(path: SectionPath, policy: AccessPolicy = access.public): ReactElement {
  return <SectionPlaceholder path={path} policy={policy} />;
}
