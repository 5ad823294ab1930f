import { lazy, type ComponentType, type ReactElement } from 'react';

/**
 * A route element whose page code loads on first visit (route-level code splitting).
 * The page module must `export default` its page component; the layout's Suspense shows a spinner.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ReactElement {
  const Page = lazy(load);
  return <Page />;
}
