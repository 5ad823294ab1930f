import { cn } from '../../../lib/cn';
import './equalizer.css';

const DELAYS = ['0s', '-0.35s', '-0.7s', '-0.2s', '-0.55s'];

/** Five bars that dance while the stream plays. */
export function Equalizer({ active, className }: { active: boolean; className?: string }) {
  return (
    <div aria-hidden="true" className={cn('h-10 items-end gap-1 transition-opacity', active ? 'dhr-eq-on' : 'opacity-40', className)}>
      {DELAYS.map((delay, i) => (
        <span key={i} className="dhr-eq-bar block h-full w-1.5 rounded-full bg-gradient-to-t from-deep-500 to-aqua-400" style={{ animationDelay: delay }} />
      ))}
    </div>
  );
}
