import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, useLayoutEffect } from 'react';
import { cn } from '../../lib/cn';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** One line under the title; also the dialog's accessible description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const sizes = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' } as const;

/**
 * Gives focus back to what had it when the dialog opened, also when the page unmounts the dialog
 * instead of closing it (Radix then leaves focus on the body). Captured in a layout effect: before
 * Radix's own effects move focus into the dialog.
 */
function useReturnFocus(open: boolean) {
  useLayoutEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // After Radix's own restore (scheduled the same way, earlier): only when focus was dropped.
      setTimeout(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (lost && opener?.isConnected) opener.focus();
      }, 0);
    };
  }, [open]);
}

/** A modal dialog (Radix: focus trap, Escape and outside click close it) in the site's glass style; focus returns to its opener. */
export function Dialog({ open, onOpenChange, title, description, children, footer, size = 'md' }: DialogProps) {
  useReturnFocus(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-night-950/75 backdrop-blur-sm" />
        <RadixDialog.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
            'rounded-3xl border border-white/10 bg-night-850 shadow-2xl shadow-black/60 outline-none',
            sizes[size],
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-white/5 px-6 pt-5 pb-4">
            <div className="min-w-0">
              <RadixDialog.Title className="text-lg font-semibold text-white">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-1 text-sm text-mist-300">{description}</RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close className="-mr-2 rounded-full p-2 text-mist-400 transition hover:bg-white/5 hover:text-white" aria-label="Close">
              <X className="size-5" />
            </RadixDialog.Close>
          </div>
          {children && <div className="overflow-y-auto px-6 py-5">{children}</div>}
          {footer && <div className="flex flex-wrap justify-end gap-3 border-t border-white/5 px-6 py-4">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface SheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The sheet's accessible name; shown in the header unless `brand` takes its place. */
  title: ReactNode;
  /** Read to assistive technology only. */
  description: string;
  /** The close button's accessible name ('Close menu', 'Close cart'). */
  closeLabel: string;
  /** Shown in the header instead of the title (which then stays for assistive technology only). */
  brand?: ReactNode;
  /** Width, padding and breakpoints of the panel. */
  className?: string;
  headerClassName?: string;
  overlayClassName?: string;
  /** Where focus goes when the sheet closes (Radix returns it to the trigger by default). */
  onCloseAutoFocus?: (event: Event) => void;
  children?: ReactNode;
}

/** A panel sliding in from the right (the phone menu, the cart): the same Radix focus trap and close rules as Dialog. */
export function Sheet({
  open,
  onOpenChange,
  title,
  description,
  closeLabel,
  brand,
  className,
  headerClassName,
  overlayClassName,
  onCloseAutoFocus,
  children,
}: SheetProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={cn('fixed inset-0 z-50 bg-night-950/70 backdrop-blur-sm', overlayClassName)} />
        <RadixDialog.Content
          onCloseAutoFocus={onCloseAutoFocus}
          className={cn('fixed inset-y-0 right-0 z-50 flex flex-col border-l border-white/10 bg-night-900 shadow-2xl outline-none', className)}
        >
          <div className={cn('flex items-center justify-between', headerClassName)}>
            {brand}
            <RadixDialog.Title className={brand ? 'sr-only' : 'flex items-center gap-2 font-display text-lg font-semibold text-white'}>
              {title}
            </RadixDialog.Title>
            <RadixDialog.Description className="sr-only">{description}</RadixDialog.Description>
            <RadixDialog.Close className="rounded-full p-2 text-mist-400 hover:bg-white/5 hover:text-white" aria-label={closeLabel}>
              <X className="size-5" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
