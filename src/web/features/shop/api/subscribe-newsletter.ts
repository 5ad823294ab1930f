import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';

type Reply = { message: string };

/** POST /api/newsletter: starts the double opt-in. */
export const subscribeNewsletter = (email: string) => apiSend<Reply>('POST', '/api/newsletter', { email });
/** POST /api/newsletter/confirm and /unsubscribe, with the secret of the mailed link. */
export const confirmNewsletter = (token: string) => apiSend<Reply>('POST', '/api/newsletter/confirm', { token });
export const unsubscribeNewsletter = (token: string) => apiSend<Reply>('POST', '/api/newsletter/unsubscribe', { token });

export const useSubscribeNewsletter = () => useMutation({ mutationFn: subscribeNewsletter });
export const useNewsletterLink = (mode: 'confirm' | 'unsubscribe') =>
  useMutation({ mutationFn: mode === 'confirm' ? confirmNewsletter : unsubscribeNewsletter });
