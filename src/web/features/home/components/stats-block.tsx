import { AudioLines, Clock, Radio, Users } from 'lucide-react';
import { PageContainer } from '../../../components/ui/page-container';

/** Fixed marketing figures. */
const STATS = [
  { value: '50K+', label: 'Listeners', Icon: Users },
  { value: '24/7', label: 'Live Streaming', Icon: Radio },
  { value: '1M+', label: 'Tracks Identified', Icon: AudioLines },
  { value: '2.5M+', label: 'Hours Streamed', Icon: Clock },
] as const;

export function StatsBlock() {
  return (
    <PageContainer width="wide">
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {STATS.map(({ value, label, Icon }) => (
          <div key={label} className="glass flex flex-col items-start gap-3 rounded-2xl p-5 sm:p-6">
            <Icon className="size-5 text-aqua-300" aria-hidden="true" />
            {/* Label first for screen readers (a dt before its dd); shown under the figure by `order`. */}
            <dt className="order-3 text-sm text-mist-400">{label}</dt>
            <dd className="order-2 font-display text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{value}</dd>
          </div>
        ))}
      </dl>
    </PageContainer>
  );
}
