// The admin feature's public surface: the operator pages' shared pieces, for the later admin tools.
export { StatCard } from './components/stat-card';
export { useStatusMessage } from './lib/use-status-message';
export { AdminPageHeader, StickyStatus } from './components/admin-page-header';
