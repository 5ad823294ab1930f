// The admin feature's public surface. Pages are default exports so the router can lazy-load them.
export { default as AdminDashboardPage } from './pages/admin-dashboard-page';
export { default as UserManagementPage } from './pages/user-management-page';
export { BulkImportDialog } from './components/bulk-import-dialog';
