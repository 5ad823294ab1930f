import { useMutation } from '@tanstack/react-query';
import type { ContactBody } from '../../../../contracts/community';
import { apiSend } from '../../../lib/http';

/** POST /api/contact (name, email, subject, message; the honeypot stays empty). */
export const sendContact = (body: ContactBody): Promise<{ message: string }> => apiSend('POST', '/api/contact', body);

export const useSendContact = () => useMutation({ mutationFn: sendContact });
