import { useMutation } from '@tanstack/react-query';
import type { EmailBody, UserExistsReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/check-user-exists. */
export const checkUserExists = (body: EmailBody) => apiSend<UserExistsReply>('POST', '/api/auth/check-user-exists', body);

export const useCheckUserExists = () => useMutation({ mutationFn: checkUserExists });
