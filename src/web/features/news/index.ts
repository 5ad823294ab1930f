// The news feature's public surface: other features import only from here.
export { LazyNewsTicker as NewsTicker } from './components/lazy-news-ticker';
