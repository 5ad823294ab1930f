// The community feature's public surface: other features and the app shell import only from here.
// Everything here is light: lists, forms, dialogs and schemas load when first shown.
export { CommentsSection } from './components/comments-section';
export { CommentsToggle } from './components/comments-toggle';
export { ConnectAndShare } from './components/connect-and-share';
export { MemberProfileButton } from './components/member-profile-button';
export { communityKeys } from './api/keys';
