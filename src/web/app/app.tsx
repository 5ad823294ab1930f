import { BrowserRouter } from 'react-router';
import { AppProviders } from './providers';
import { Heartbeat } from './heartbeat';
import { AppRoutes } from './app-routes';

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
        <Heartbeat />
      </BrowserRouter>
    </AppProviders>
  );
}
