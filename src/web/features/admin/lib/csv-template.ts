import { BULK_IMPORT_TEMPLATE } from '../../../../contracts/admin';

export const CSV_TEMPLATE_FILENAME = 'dhr-members-import-template.csv';

/** Offers the contract's template as a file download (no server round trip). */
export function downloadCsvTemplate(): void {
  const url = URL.createObjectURL(new Blob([BULK_IMPORT_TEMPLATE + '\n'], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = CSV_TEMPLATE_FILENAME;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The upload must be a CSV file (by extension or type; browsers differ on the type). */
export function isCsvFile(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv';
}
