import { describe, expect, it } from 'vitest';
import { usersExportUrl } from './export-users';

describe('usersExportUrl', () => {
  it('carries the list filters that are set, encoded, and nothing else', () => {
    expect(usersExportUrl({ search: '', tier: '', status: '' })).toBe('/api/admin/users/export.csv');
    expect(usersExportUrl({ search: '  aoife & co ', tier: 'vip', status: 'active' })).toBe(
      '/api/admin/users/export.csv?search=aoife+%26+co&tier=vip&status=active',
    );
  });
});
