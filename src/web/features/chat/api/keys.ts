/** Query keys of the chat feature. */
export const chatKeys = {
  history: (channel: string) => ['chat', channel] as const,
};
