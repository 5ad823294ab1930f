import { ArrowLeft, Globe, Pause, Play, Plus, RefreshCw, Rss, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { access } from '../../../../contracts/access-policy';
import type { NewsSource } from '../../../../contracts/news';
import { NEWS_ITEM_TYPES, SOURCE_PRIORITY_MAX, type NewsItemType, type NewsSourceKind } from '../../../../contracts/news-values';
import { Badge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useConfirm } from '../../../components/ui/confirm';
import { SelectField, TextField } from '../../../components/ui/form-controls';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime, relativeTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useAddNewsSource, useFetchNewsSource, useNewsSources, useRemoveNewsSource, useResumeNewsSource, useUpdateNewsSource } from '../api/news-sources';
import { SourceFetchReport } from '../components/source-fetch-report';

const TYPE_LABEL: Record<NewsItemType, string> = { rss: 'Feed item', news: 'News', event: 'Event', release: 'Release' };
const typeOptions = NEWS_ITEM_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }));

/** /admin/news-sources: the feeds and web pages the news panel and ticker are made of. */
export default function NewsSourcesPage() {
  useDocumentTitle('News Sources');
  return (
    <AccessGate policy={access.admin}>
      <NewsSources />
    </AccessGate>
  );
}

function NewsSources() {
  const sources = useNewsSources();
  return (
    <PageContainer width="wide" className="py-10 sm:py-14">
      <ButtonLink to="/admin-dashboard" variant="ghost" size="sm" className="-ml-3">
        <ArrowLeft className="size-4" aria-hidden="true" /> Back
      </ButtonLink>
      <header className="mt-4 max-w-3xl">
        <h1 className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">News Sources</h1>
        <p className="mt-2 text-mist-300">
          RSS and Atom feeds, and web pages read for their title, description and image. Each is fetched every poll interval; a failing source shows why.
        </p>
      </header>
      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
        <AddSourceForm />
        <section aria-label="Sources" className="min-w-0 space-y-3">
          {sources.isPending ? (
            <Spinner label="Loading sources..." showLabel />
          ) : sources.isError ? (
            <LoadError
              what="the news sources"
              detail={errorMessage(sources.error, '') || undefined}
              onRetry={() => void sources.refetch()}
              retrying={sources.isFetching}
            />
          ) : sources.data.length === 0 ? (
            <Card className="text-center text-mist-400">No sources yet. Add a feed or a web page.</Card>
          ) : (
            sources.data.map((s) => <SourceRow key={s.id} source={s} />)
          )}
        </section>
      </div>
    </PageContainer>
  );
}

function AddSourceForm() {
  const add = useAddNewsSource();
  const [kind, setKind] = useState<NewsSourceKind>('rss');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [itemType, setItemType] = useState<NewsItemType>('rss');
  const [priority, setPriority] = useState(0);

  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(
      { kind, name: name.trim(), url: url.trim(), itemType, priority },
      {
        onSuccess: () => {
          setName('');
          setUrl('');
        },
      },
    );
  }

  return (
    <Card className="h-fit">
      <h2 className="flex items-center gap-2 font-display text-lg font-bold text-white">
        <Plus className="size-5 text-aqua-300" aria-hidden="true" /> Add a source
      </h2>
      <form onSubmit={submit} className="mt-4 space-y-3" aria-label="Add a source">
        <div role="group" aria-label="Kind" className="grid grid-cols-2 gap-2">
          {(['rss', 'web'] as const).map((k) => (
            <button
              key={k}
              type="button"
              aria-pressed={kind === k}
              onClick={() => {
                setKind(k);
                setItemType(k === 'rss' ? 'rss' : 'news');
              }}
              className={`inline-flex h-10 items-center justify-center gap-2 rounded-xl text-sm font-semibold ring-1 transition ${kind === k ? 'bg-white/10 text-white ring-aqua-400/50' : 'text-mist-400 ring-white/10 hover:text-white'}`}
            >
              {k === 'rss' ? <Rss className="size-4" aria-hidden="true" /> : <Globe className="size-4" aria-hidden="true" />}
              {k === 'rss' ? 'Feed' : 'Web page'}
            </button>
          ))}
        </div>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="Resident Advisor" />
        <TextField
          label="Address"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required
          maxLength={2000}
          placeholder={kind === 'rss' ? 'https://example.com/feed.xml' : 'https://example.com/events/night'}
        />
        <div className="grid grid-cols-2 gap-3">
          <SelectField label="Items are" value={itemType} onChange={(e) => setItemType(e.target.value as NewsItemType)} options={typeOptions} />
          <TextField
            label="Priority"
            type="number"
            min={0}
            max={SOURCE_PRIORITY_MAX}
            value={priority}
            onChange={(e) => setPriority(Math.max(0, Math.min(SOURCE_PRIORITY_MAX, Number(e.target.value) || 0)))}
          />
        </div>
        {add.isError && (
          <p role="alert" className="rounded-xl bg-rose-500/10 px-3 py-2 text-sm text-rose-200">
            {errorMessage(add.error, 'Could not add the source')}
          </p>
        )}
        <Button type="submit" disabled={add.isPending} className="w-full">
          {add.isPending ? 'Adding and fetching…' : 'Add source'}
        </Button>
      </form>
    </Card>
  );
}

const STATUS = {
  ok: { label: 'OK', tone: 'green' },
  not_modified: { label: 'Not modified', tone: 'cyan' },
  failed: { label: 'Failed', tone: 'red' },
} as const;

function SourceRow({ source: s }: { source: NewsSource }) {
  const update = useUpdateNewsSource();
  const remove = useRemoveNewsSource();
  const confirm = useConfirm();
  const fetchNow = useFetchNewsSource();
  const resume = useResumeNewsSource();
  const busy = update.isPending || remove.isPending || fetchNow.isPending || resume.isPending;
  const status = s.lastStatus ? STATUS[s.lastStatus] : null;
  const error = update.error ?? remove.error ?? fetchNow.error ?? resume.error;
  return (
    <Card padding="sm" aria-label={s.name} role="article">
      {confirm.dialog}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            {s.kind === 'rss' ? <Rss className="size-4 text-amber-300" aria-label="Feed" /> : <Globe className="size-4 text-aqua-300" aria-label="Web page" />}
            <h3 className="font-semibold text-white">{s.name}</h3>
            {s.autoPausedAt ? (
              <Badge tone="red">Paused after 7 days of failures</Badge>
            ) : s.paused ? (
              <Badge tone="yellow">Paused</Badge>
            ) : status ? (
              <Badge tone={status.tone}>{status.label}</Badge>
            ) : (
              <Badge>Not fetched yet</Badge>
            )}
            <Badge>{TYPE_LABEL[s.itemType]}</Badge>
            {s.priority > 0 && <Badge tone="violet">Priority {s.priority}</Badge>}
          </div>
          <p className="mt-1 truncate text-sm text-mist-400" title={s.url}>
            {s.url}
          </p>
          <p className="mt-1 text-xs text-mist-500">
            {s.itemCount} item{s.itemCount === 1 ? '' : 's'} ·{' '}
            {s.lastFetchedAt ? <span title={formatDateTime(s.lastFetchedAt)}>fetched {relativeTime(s.lastFetchedAt)}</span> : 'never fetched'}
            {s.errorCount > 1 && ` · ${s.errorCount} failures in a row`}
          </p>
          {s.lastError && <p className="mt-2 rounded-lg bg-rose-500/10 px-2.5 py-1.5 text-xs break-words text-rose-200">{s.lastError}</p>}
          <SourceFetchReport source={s} />
          {s.autoPausedAt && (
            <div className="mt-2 flex flex-wrap items-center gap-2 rounded-lg bg-amber-500/10 px-2.5 py-2 text-xs text-amber-100">
              <span>Paused {formatDateTime(s.autoPausedAt)}: it failed for 7 days. Resume tries it again now.</span>
              <Button size="sm" variant="secondary" disabled={busy} onClick={() => resume.mutate(s.id)}>
                <Play className="size-4" aria-hidden="true" /> Resume
              </Button>
            </div>
          )}
          {error && (
            <p role="alert" className="mt-2 text-xs text-rose-200">
              {errorMessage(error, 'That did not work')}
            </p>
          )}
        </div>
        <div className="flex shrink-0 gap-1.5">
          <Button size="sm" variant="secondary" disabled={busy || s.paused} onClick={() => fetchNow.mutate(s.id)} aria-label={`Fetch ${s.name} now`}>
            <RefreshCw className={`size-4 ${fetchNow.isPending ? 'animate-spin' : ''}`} aria-hidden="true" />
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => (s.paused ? resume.mutate(s.id) : update.mutate({ id: s.id, patch: { paused: true } }))}
            aria-label={s.paused ? `Resume ${s.name}` : `Pause ${s.name}`}
          >
            {s.paused ? <Play className="size-4" aria-hidden="true" /> : <Pause className="size-4" aria-hidden="true" />}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={async () => {
              if (await confirm.ask({ title: 'Remove the source', message: `Remove ${s.name} and its items?`, confirmLabel: 'Remove' })) remove.mutate(s.id);
            }}
            aria-label={`Remove ${s.name}`}
          >
            <Trash2 className="size-4 text-rose-300" aria-hidden="true" />
          </Button>
        </div>
      </div>
    </Card>
  );
}
