import { Download, FileSpreadsheet, Upload, X } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { BULK_IMPORT_COLUMNS, BULK_IMPORT_EMPTY, BULK_IMPORT_TEMPLATE, type BulkImportResult } from '../../../../contracts/admin';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { cn } from '../../../lib/cn';
import { ApiError } from '../../../lib/http';
import { useBulkImport } from '../api/bulk-import';
import { downloadCsvTemplate, isCsvFile } from '../lib/csv-template';
import { BulkPlanView } from './bulk-plan';
import { tierList } from '../../../../contracts/tier-table';
import { TIERS } from '../../../../contracts/tiers';

export const INVALID_CSV_FILE = 'Please select a valid CSV file';
/** The success callback runs 2 s after an import that changed something. */
export const IMPORT_SUCCESS_DELAY_MS = 2000;

type Tab = 'import' | 'help';

const COLUMN_HELP: Record<(typeof BULK_IMPORT_COLUMNS)[number], string> = {
  email: 'Required. The member’s email; an existing member with it is updated, not duplicated.',
  firstName: 'Optional.',
  lastName: 'Optional.',
  subscriptionTier: `Required. ${tierList(TIERS, 'or')} (any case).`,
  subscriptionStatus:
    'Required. active, cancelled or expired (an export also writes cancelled_with_access and inactive). A cancelled member paid to a future expiry keeps access until then.',
  subscriptionExpiry: 'Optional. YYYY-MM-DD; empty means no expiry.',
  pledgeAmount: 'Optional. Euros per month, e.g. 5 or 10.00.',
  source:
    'Optional. admin (members the station manages itself; the default when empty), patreon or buymeacoffee. A sync only changes members of its own platform.',
};

/** Import Failed text: the HTTP status line plus the server's own words. */
function importFailure(err: unknown): string {
  if (err instanceof ApiError) return `Import failed: ${err.serverMessage ? `${err.serverMessage} (${err.message})` : err.message}`;
  return `Import failed: ${err instanceof Error ? err.message : String(err)}`;
}

export interface BulkImportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called 2 s after an import that created or updated members (the dashboard refreshes its figures). */
  onImported: () => void;
}

export function BulkImportDialog({ open, onOpenChange, onImported }: BulkImportDialogProps) {
  const [tab, setTab] = useState<Tab>('import');
  const tabsId = useId();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} size="lg" title="Bulk Import Members" description="Create or update many members at once from a CSV file.">
      <div role="tablist" aria-label="Bulk import" className="mb-5 grid grid-cols-2 gap-1 rounded-full border border-white/10 bg-white/[0.03] p-1">
        {(
          [
            ['import', 'Import Data'],
            ['help', 'Template & Help'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`${tabsId}-${key}`}
            aria-selected={tab === key}
            aria-controls={`${tabsId}-${key}-panel`}
            tabIndex={tab === key ? 0 : -1}
            onClick={() => setTab(key)}
            onKeyDown={(e) => {
              // WAI-ARIA tabs: the arrow keys move between the two tabs.
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              const next = tab === 'import' ? 'help' : 'import';
              setTab(next);
              document.getElementById(`${tabsId}-${next}`)?.focus();
            }}
            className={cn(
              'h-9 rounded-full text-sm font-semibold',
              tab === key ? 'bg-gradient-to-r from-deep-600 to-aqua-500/80 text-white shadow' : 'text-mist-300 hover:text-white',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      {/* Both panels stay mounted so a chosen file or pasted text survives a look at the help. */}
      <div role="tabpanel" id={`${tabsId}-import-panel`} aria-labelledby={`${tabsId}-import`} hidden={tab !== 'import'}>
        <ImportPanel onImported={onImported} />
      </div>
      <div role="tabpanel" id={`${tabsId}-help-panel`} aria-labelledby={`${tabsId}-help`} hidden={tab !== 'help'}>
        <HelpPanel />
      </div>
    </Dialog>
  );
}

function ImportPanel({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [pasted, setPasted] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<BulkImportResult | null>(null);
  // The preview of the current file or text: importing needs one first, and it is dropped when the input changes.
  const [preview, setPreview] = useState<BulkImportResult | null>(null);
  const textareaId = useId();
  const importer = useBulkImport();

  function chooseFile(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0] ?? null;
    setResult(null);
    setPreview(null);
    if (chosen && !isCsvFile(chosen)) {
      setFile(null);
      setProblem(INVALID_CSV_FILE);
      e.target.value = '';
      return;
    }
    setProblem(null);
    setFile(chosen);
  }

  function clearFile() {
    setFile(null);
    setPreview(null);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    setResult(null);
    const csvContent = file ? await file.text() : pasted;
    if (!csvContent.trim()) {
      setProblem(BULK_IMPORT_EMPTY);
      return;
    }
    try {
      if (!preview) {
        setPreview(await importer.mutateAsync({ csvContent, dryRun: true }));
        return;
      }
      const res = await importer.mutateAsync({
        csvContent,
        confirm: preview.plan?.needsConfirmation === true,
        ...(preview.plan ? { planId: preview.plan.planId } : {}),
      });
      setPreview(null);
      setResult(res);
      if (res.imported > 0 || res.updated > 0) setTimeout(onImported, IMPORT_SUCCESS_DELAY_MS);
    } catch (err) {
      setProblem(importFailure(err));
      // The members changed since the preview (409 plan_changed, nothing applied): the message says
      // what the run would take now; the new preview is shown, and Apply asks for that plan.
      if (err instanceof ApiError && err.code === 'plan_changed') {
        setPreview(await importer.mutateAsync({ csvContent, dryRun: true }).catch(() => null));
      }
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-5" noValidate>
      <CsvFileField file={file} onChoose={chooseFile} onClear={clearFile} />

      <div className="flex flex-col gap-2">
        <label htmlFor={textareaId} className="text-sm font-semibold text-white">
          …or paste CSV data
        </label>
        <textarea
          id={textareaId}
          value={pasted}
          onChange={(e) => {
            setPasted(e.target.value);
            setPreview(null);
          }}
          rows={7}
          spellCheck={false}
          placeholder={BULK_IMPORT_TEMPLATE}
          className="w-full resize-y rounded-2xl border border-white/10 bg-night-900/70 px-4 py-3 font-mono text-xs leading-relaxed text-mist-100 placeholder:text-mist-500/70 focus:border-aqua-400/60 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none"
        />
      </div>

      {problem && (
        <p role="alert" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 px-4 py-3 text-sm break-words text-rose-200">
          {problem}
        </p>
      )}

      {preview && <ImportResult result={preview} title="Preview: nothing is saved yet" testPrefix="preview" />}
      {preview?.plan && <BulkPlanView plan={preview.plan} title="What the import would change" />}
      {result && <ImportResult result={result} title="Import complete" testPrefix="import" />}

      <ImportActions preview={preview} pending={importer.isPending} onBack={() => setPreview(null)} />
    </form>
  );
}

/** The CSV file chosen, with Remove; a chosen file wins over pasted text. */
function CsvFileField({ file, onChoose, onClear }: { file: File | null; onChoose: (e: ChangeEvent<HTMLInputElement>) => void; onClear: () => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fileId} className="text-sm font-semibold text-white">
        Upload a CSV file
      </label>
      <div className="flex flex-wrap items-center gap-3 rounded-2xl border border-dashed border-white/15 bg-white/[0.02] px-4 py-4">
        <Upload className="size-5 shrink-0 text-aqua-300" aria-hidden="true" />
        <input
          ref={fileInput}
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          onChange={onChoose}
          className="min-w-0 flex-1 text-sm text-mist-300 file:mr-3 file:rounded-full file:border-0 file:bg-white/10 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-white/15"
        />
        {file && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onClear();
              if (fileInput.current) fileInput.current.value = '';
            }}
            aria-label={`Remove ${file.name}`}
          >
            <X className="size-4" aria-hidden="true" />
          </Button>
        )}
      </div>
      {file && (
        <p className="flex items-center gap-2 text-xs text-mist-400">
          <FileSpreadsheet className="size-4 text-emerald-300" aria-hidden="true" />
          {file.name} will be imported (the pasted text below is ignored while a file is chosen).
        </p>
      )}
    </div>
  );
}

/** Back from a preview, and the one button that previews, then imports (naming the subscriptions it ends). */
function ImportActions({ preview, pending, onBack }: { preview: BulkImportResult | null; pending: boolean; onBack: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-3">
      {preview && (
        <Button variant="ghost" onClick={onBack}>
          Back
        </Button>
      )}
      <Button type="submit" variant={preview?.plan?.needsConfirmation ? 'danger' : 'primary'} disabled={pending}>
        {pending
          ? preview
            ? 'Importing...'
            : 'Checking...'
          : !preview
            ? 'Preview import'
            : preview.plan?.needsConfirmation
              ? `Import and end ${preview.plan.counts.loseAccess + preview.plan.counts.stopPaying} subscriptions`
              : 'Confirm import'}
      </Button>
    </div>
  );
}

function ImportResult({ result, title, testPrefix }: { result: BulkImportResult; title: string; testPrefix: string }) {
  const figures = [
    { label: 'Imported', value: result.imported, tone: 'text-emerald-300' },
    { label: 'Updated', value: result.updated, tone: 'text-aqua-300' },
    { label: 'Skipped', value: result.skipped, tone: 'text-mist-200' },
    { label: 'Errors', value: result.errors.length, tone: result.errors.length ? 'text-rose-300' : 'text-mist-200' },
  ];
  return (
    <section aria-label="Import result" role="status" className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-white/[0.03] p-4">
      <p className="text-sm font-semibold text-white">{title}</p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {figures.map((f) => (
          <div key={f.label} className="rounded-xl bg-white/[0.03] px-3 py-2">
            <dt className="text-xs text-mist-400">{f.label}</dt>
            <dd className={cn('text-xl font-bold tabular-nums', f.tone)} data-testid={`${testPrefix}-${f.label.toLowerCase()}`}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
      {(result.renamed ?? 0) > 0 && (
        <div className="flex flex-col gap-1 text-xs text-mist-300">
          <p>
            Names changed: <span data-testid={`${testPrefix}-renamed`}>{result.renamed}</span>
          </p>
          <ul className="max-h-48 overflow-y-auto rounded-xl border border-white/10 px-4 py-2 leading-relaxed">
            {result.nameChanges?.map((n) => (
              <li key={n.email} className="py-0.5 break-words">
                {n.email}: {fullName(n.from)} → {fullName(n.to)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.errors.length > 0 && (
        <ul className="max-h-48 overflow-y-auto rounded-xl border border-rose-400/20 bg-rose-500/5 px-4 py-2 text-xs leading-relaxed text-rose-200">
          {result.errors.map((e, i) => (
            <li key={i} className="py-0.5 break-words">
              {e}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function fullName(n: { firstName: string | null; lastName: string | null }): string {
  return [n.firstName, n.lastName].filter(Boolean).join(' ') || '(no name)';
}

function HelpPanel() {
  return (
    <div className="flex flex-col gap-5 text-sm text-mist-300">
      <p>
        One member per line, with a header line naming the columns. Members are matched by email: a new email creates a member, a known one is updated, and a
        line identical to what is stored is skipped. You see a preview first; all valid lines are then saved together, and the import appears in the sync log,
        where it can be reverted. Each bad line is listed with its row number and the problem, and changes nothing.
      </p>
      <div className="overflow-x-auto rounded-2xl border border-white/10">
        <table className="w-full text-left text-xs">
          <thead className="bg-white/[0.04] text-mist-400">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Column
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Meaning
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/5">
            {BULK_IMPORT_COLUMNS.map((c) => (
              <tr key={c}>
                <td className="px-3 py-2 font-mono text-aqua-300">{c}</td>
                <td className="px-3 py-2">{COLUMN_HELP[c]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <pre className="overflow-x-auto rounded-2xl border border-white/10 bg-night-900/70 px-4 py-3 font-mono text-xs text-mist-200">{BULK_IMPORT_TEMPLATE}</pre>
      <div>
        <Button variant="secondary" onClick={downloadCsvTemplate}>
          <Download className="size-4" aria-hidden="true" />
          Download template
        </Button>
      </div>
    </div>
  );
}
