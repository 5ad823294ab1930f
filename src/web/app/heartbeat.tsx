import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { reportPage, startHeartbeat } from '../lib/heartbeat';

/** Reports every page of the app to the live monitor (src/web/lib/heartbeat.ts). */
export function Heartbeat() {
  const { pathname } = useLocation();
  useEffect(() => startHeartbeat(), []);
  useEffect(() => reportPage(pathname), [pathname]);
  return null;
}
