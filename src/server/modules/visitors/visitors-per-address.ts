import { MINUTE_MS } from '../../../contracts/time';

/** Visitors one address may add to the live monitor per minute; beats beyond are answered but not stored. */
export const VISITORS_PER_ADDRESS = 10;

/**
 * The live monitor's flood guard, in memory: per client address (IPv6 per /64) and
 * fixed minute, the first VISITORS_PER_ADDRESS visitor keys are let through. A household or an office
 * fits; a script inventing 20,000 visitors from one address adds ten rows. The whole map is dropped
 * each minute, so it never holds more than one minute's addresses.
 */
export class VisitorsPerAddress {
  private windowStart = 0;
  private seen = new Map<string, Set<string>>();

  admits(address: string, visitorKey: string, now = Date.now()): boolean {
    if (now - this.windowStart >= MINUTE_MS) {
      this.windowStart = now;
      this.seen = new Map();
    }
    let keys = this.seen.get(address);
    if (!keys) this.seen.set(address, (keys = new Set()));
    if (keys.has(visitorKey)) return true;
    if (keys.size >= VISITORS_PER_ADDRESS) return false;
    keys.add(visitorKey);
    return true;
  }
}
