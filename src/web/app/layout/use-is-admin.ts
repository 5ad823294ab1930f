import { usePermissions } from '../../features/auth';

/** Admin check for the shell: the server's permissions flag. */
export function useIsAdmin(): boolean {
  const { data: permissions } = usePermissions();
  return permissions?.isAdmin === true;
}
