// The chat feature's public surface: the panel loads lazily behind these.
export { ChannelChat } from './components/channel-chat';
export { HomeChat } from './components/home-chat';
