import { useMutation } from '@tanstack/react-query';
import type { AuthReply, RegisterBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/register; the member signs in afterwards. */
export const register = (body: RegisterBody) => apiSend<AuthReply>('POST', '/api/auth/register', body);

export const useRegister = () => useMutation({ mutationFn: register });
