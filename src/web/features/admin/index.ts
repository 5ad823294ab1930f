// The admin feature's public surface: the operator pages' shared pieces, for the later admin tools.
export { TextField, SelectField, CheckboxField, type Option } from './components/form-controls';
export { StatCard } from './components/stat-card';
export { StatusBanner } from './components/status-banner';
export { useStatusMessage } from './lib/use-status-message';
export { AdminPageHeader, StickyStatus } from './components/admin-page-header';
