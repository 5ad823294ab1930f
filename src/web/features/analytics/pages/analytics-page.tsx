import { useState } from 'react';
import { access } from '../../../../contracts/access-policy';
import { PLAYER_FAMILY_LABELS, type PlayerFamily } from '../../../../contracts/analytics-values';
import type { AnalyticsOverview, Compared } from '../../../../contracts/analytics';
import { buttonClasses } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { dublinDay, formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { formatEuro, formatNumber } from '../../../lib/numbers';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AdminPageHeader } from '../../admin';
import { AccessGate } from '../../auth';
import { musicReportUrl, useOverview } from '../api/get-overview';
import { Chart, type ChartData } from '../components/chart';
import { RANGES, rangeDays, shiftDay } from '../lib/ranges';

/** /analytics: the station's numbers over time, for admins. */
export default function AnalyticsPage() {
  useDocumentTitle('Analytics');
  return (
    <AccessGate policy={access.admin}>
      <Analytics />
    </AccessGate>
  );
}

function Analytics() {
  const today = dublinDay(new Date());
  const [choice, setChoice] = useState<string>('30');
  const [custom, setCustom] = useState(() => rangeDays(30, today));
  const preset = RANGES.find((r) => r.id === choice);
  const { from, to } = preset ? rangeDays(preset.days, today) : custom;
  const query = useOverview(from, to);
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:py-12">
      <AdminPageHeader
        title="Analytics"
        description="Listening, supporters and music over time, in Dublin time, against the period before."
        backTo="/admin-dashboard"
        backLabel="Dashboard"
        actions={
          <a className={buttonClasses('secondary', 'sm')} href={musicReportUrl(from, reportEnd(from, to))} download>
            Music report (CSV)
          </a>
        }
      />
      <fieldset className="flex flex-wrap items-end gap-2">
        <legend className="mb-2 text-sm text-mist-300">Range</legend>
        {RANGES.map((r) => (
          <button
            key={r.id}
            type="button"
            aria-pressed={choice === r.id}
            className={buttonClasses(choice === r.id ? 'primary' : 'ghost', 'sm')}
            onClick={() => setChoice(r.id)}
          >
            {r.label}
          </button>
        ))}
        <button
          type="button"
          aria-pressed={choice === 'custom'}
          className={buttonClasses(choice === 'custom' ? 'primary' : 'ghost', 'sm')}
          onClick={() => setChoice('custom')}
        >
          Custom
        </button>
        {choice === 'custom' && (
          <span className="flex flex-wrap gap-2 text-sm">
            <label className="flex flex-col">
              From
              <input
                type="date"
                value={custom.from}
                max={custom.to}
                onChange={(e) => e.target.value && setCustom((c) => ({ ...c, from: e.target.value }))}
                className="rounded bg-white/10 px-2 py-1"
              />
            </label>
            <label className="flex flex-col">
              To
              <input
                type="date"
                value={custom.to}
                min={custom.from}
                max={today}
                onChange={(e) => e.target.value && setCustom((c) => ({ ...c, to: e.target.value }))}
                className="rounded bg-white/10 px-2 py-1"
              />
            </label>
          </span>
        )}
      </fieldset>
      {query.isError && <p role="alert">{errorMessage(query.error, 'The figures could not be loaded.')}</p>}
      {query.data && <Figures data={query.data} />}
      {query.isPending && <p aria-live="polite">Loading the figures…</p>}
    </PageContainer>
  );
}

/** The music report covers at most 31 days: a longer range downloads its first 31. */
const reportEnd = (from: string, to: string) => {
  const last = shiftDay(from, 30);
  return to < last ? to : last;
};

function Figures({ data }: { data: AnalyticsOverview }) {
  const f = data.figures;
  const num = (v: number) => formatNumber(v, 1);
  const euro = (v: number) => formatEuro(v);
  const file = (name: string) => `dhr-${name}-${data.from}-${data.to}.csv`;
  const tiers = [...new Set(data.members.flatMap((m) => Object.keys(m.byTier)))].sort();
  const platforms = [...new Set(data.mrr.flatMap((m) => Object.keys(m.byPlatform)))].sort();
  const charts: { title: string; kind: 'line' | 'bar' | 'stacked'; data: ChartData; format?: (v: number) => string; name: string }[] = [
    {
      title: 'Listeners over time by channel',
      kind: 'line',
      name: 'listeners',
      data: { series: data.listeners.channels, rows: data.listeners.points.map((p) => ({ label: formatDateTime(p.at), values: p.values })) },
      format: num,
    },
    {
      title: 'Listening hours by day',
      kind: 'bar',
      name: 'tlh',
      data: { series: ['Hours'], rows: data.days.map((d) => ({ label: d.day, values: [d.hours] })) },
      format: num,
    },
    {
      title: 'Countries (listening hours)',
      kind: 'bar',
      name: 'countries',
      data: { series: ['Hours'], rows: data.countries.slice(0, 20).map((c) => ({ label: c.value, values: [c.hours] })) },
      format: num,
    },
    {
      title: 'Players (listening hours)',
      kind: 'bar',
      name: 'players',
      data: { series: ['Hours'], rows: data.players.map((p) => ({ label: PLAYER_FAMILY_LABELS[p.value as PlayerFamily] ?? p.value, values: [p.hours] })) },
      format: num,
    },
    {
      title: 'Members with paid access by tier',
      kind: 'stacked',
      name: 'members',
      data: { series: tiers, rows: data.members.map((m) => ({ label: m.day, values: tiers.map((t) => m.byTier[t] ?? 0) })) },
    },
    {
      title: 'Monthly recurring revenue by platform',
      kind: 'stacked',
      name: 'mrr',
      data: { series: platforms, rows: data.mrr.map((m) => ({ label: m.day, values: platforms.map((p) => m.byPlatform[p] ?? 0) })) },
      format: euro,
    },
    {
      title: 'New vs stopped paying',
      kind: 'bar',
      name: 'paying',
      data: { series: ['New', 'Came back', 'Stopped'], rows: data.flows.map((d) => ({ label: d.day, values: [d.newPaying, d.cameBack, d.stoppedPaying] })) },
    },
    {
      title: 'Free-to-paid conversions',
      kind: 'bar',
      name: 'conversions',
      data: { series: ['Conversions'], rows: data.flows.map((d) => ({ label: d.day, values: [d.conversions] })) },
    },
    {
      title: 'Top mixes',
      kind: 'bar',
      name: 'mixes',
      data: { series: ['Plays', 'Downloads'], rows: f.topMixes.map((m) => ({ label: m.title, values: [m.plays, m.downloads] })) },
    },
  ];
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Headline label="Listeners a day" figure={f.listeners} format={num} />
        <Headline label="Listening hours" figure={f.listeningHours} format={num} />
        <Headline label="Peak listeners" figure={f.peak} format={num} detail={f.peak.at ? formatDateTime(f.peak.at) : undefined} />
        <Headline label="Members with paid access" figure={f.membersWithAccess} format={num} />
        <Headline label="MRR" figure={f.mrrEuros} format={euro} />
        <Headline label="New paying" figure={f.newPaying} format={num} />
        <Headline label="Stopped paying" figure={f.stoppedPaying} format={num} />
        <Headline label="Conversions" figure={f.conversions} format={num} />
      </dl>
      <p className="text-xs text-mist-300">
        {data.from} to {data.to}, compared with {data.previousFrom} to {data.previousTo}.
      </p>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {charts.map((c) => (
          <Chart key={c.name} title={c.title} kind={c.kind} data={c.data} format={c.format} file={file(c.name)} />
        ))}
      </div>
    </>
  );
}

function Headline({ label, figure, format, detail }: { label: string; figure: Compared; format: (v: number) => string; detail?: string | undefined }) {
  const change = figure.change === null ? 'no figure before' : `${figure.change >= 0 ? '+' : ''}${formatNumber(figure.change * 100, 1)}% on the period before`;
  return (
    <div className="rounded-xl border border-white/10 bg-white/[0.03] p-3">
      <dt className="text-xs text-mist-300">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{format(figure.value)}</dd>
      <dd className="text-xs text-mist-300">{change}</dd>
      {detail && <dd className="text-xs text-mist-300">{detail}</dd>}
    </div>
  );
}
