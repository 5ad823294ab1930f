// The news feature's public surface: other features import only from here.
export { NewsTicker } from './components/news-ticker';
