import { tierLabel } from '../../../../contracts/tier-table';
import { SYNC_WORDS, type BulkPlan } from '../../../../contracts/admin';
import { cn } from '../../../lib/cn';
import { formatDate } from '../../../lib/dates';
import { formatNumber } from '../../../lib/numbers';
import { STATUS_LABEL } from './options';

const KINDS: { key: keyof BulkPlan['counts']; label: string; tone: string }[] = [
  { key: 'loseAccess', label: SYNC_WORDS.loseAccessNow, tone: 'text-rose-300' },
  { key: 'stopPaying', label: SYNC_WORDS.stopPaying, tone: 'text-amber-300' },
  { key: 'tierDown', label: 'Tier down', tone: 'text-amber-300' },
  { key: 'gainAccess', label: 'Gain access', tone: 'text-emerald-300' },
  { key: 'tierUp', label: 'Tier up', tone: 'text-aqua-300' },
  { key: 'detailsChanged', label: 'Status, expiry or amount', tone: 'text-mist-100' },
  { key: 'created', label: 'New members', tone: 'text-mist-100' },
  { key: 'unchanged', label: 'Unchanged', tone: 'text-mist-400' },
];

/** The kinds whose sample members are listed, in the order the server sends them (most serious first). */
const SAMPLE_KINDS: { key: BulkPlan['samples'][number]['kind']; label: string }[] = [
  { key: 'loseAccess', label: SYNC_WORDS.loseAccessNow },
  { key: 'stopPaying', label: SYNC_WORDS.stopPaying },
  { key: 'tierDown', label: 'Tier down' },
  { key: 'gainAccess', label: 'Gain access' },
  { key: 'tierUp', label: 'Tier up' },
  { key: 'detailsChanged', label: 'Status, expiry or amount' },
];

type Access = BulkPlan['samples'][number]['from'];

function describe(a: Access): string {
  const expiry = a.expiry ? ` until ${formatDate(a.expiry)}` : '';
  return `${tierLabel(a.tier)} · ${STATUS_LABEL[a.status]}${expiry}`;
}

/** What a bulk run (sync, import, revert) does or would do: counts per kind of change and sample members. */
export function BulkPlanView({ plan, title }: { plan: BulkPlan; title: string }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3" data-testid="bulk-plan">
      <h3 className="text-sm font-semibold text-white">{title}</h3>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {KINDS.map((k) => (
          <div key={k.key} className="rounded-xl bg-white/[0.03] px-3 py-2">
            <dt className="text-xs text-mist-400">{k.label}</dt>
            <dd className={cn('text-xl font-bold tabular-nums', k.tone)} data-testid={`plan-${k.key}`}>
              {formatNumber(plan.counts[k.key])}
            </dd>
          </div>
        ))}
      </dl>
      {plan.needsConfirmation && (
        <p role="alert" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 px-4 py-3 text-sm text-rose-100">
          This ends the subscriptions of {formatNumber(plan.counts.loseAccess + plan.counts.stopPaying)} of {formatNumber(plan.payingMembers)} paying members:{' '}
          {formatNumber(plan.counts.loseAccess)} lose access now, {formatNumber(plan.counts.stopPaying)} stop paying and keep access until their paid-through
          date. Check the lists below before you confirm.
        </p>
      )}
      {SAMPLE_KINDS.map((k) => {
        const samples = plan.samples.filter((s) => s.kind === k.key);
        if (!samples.length) return null;
        const loss = k.key === 'loseAccess' || k.key === 'stopPaying' || k.key === 'tierDown';
        return (
          <div key={k.key} className="max-h-64 overflow-auto rounded-2xl border border-white/10" data-testid={`plan-samples-${k.key}`}>
            <table className="w-full text-left text-xs">
              <caption className="bg-night-850 px-3 py-2 text-left text-xs font-semibold text-mist-200">
                {k.label} <span className="font-normal text-mist-400">({SYNC_WORDS.showing(samples.length, plan.counts[k.key])})</span>
              </caption>
              <thead className="sticky top-0 bg-night-850 text-mist-400">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Member
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Now
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    After
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/5">
                {samples.map((s) => (
                  <tr key={s.email} className="align-top">
                    <td className="px-3 py-2 break-all text-mist-100">
                      {s.email}
                      {s.created && <span className="ml-1 text-emerald-300">(new)</span>}
                      {s.reason && <span className="block text-mist-500">{s.reason}</span>}
                    </td>
                    <td className="px-3 py-2 text-mist-300">{describe(s.from)}</td>
                    <td className={cn('px-3 py-2', loss ? 'text-rose-200' : 'text-emerald-200')}>{describe(s.to)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </section>
  );
}
