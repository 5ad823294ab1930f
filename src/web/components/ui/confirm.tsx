import { type ReactNode, useCallback, useRef, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

interface Question {
  title: string;
  message: string;
  confirmLabel: string;
}

/**
 * An in-page confirmation instead of `window.confirm`: `ask(...)` opens a dialog and resolves to
 * whether the moderator confirmed; render `dialog` once in the component. Focus returns to the button
 * that asked (Dialog).
 */
export function useConfirm(): { ask: (q: Question) => Promise<boolean>; dialog: ReactNode } {
  const [question, setQuestion] = useState<Question | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const ask = useCallback(
    (q: Question) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setQuestion(q);
      }),
    [],
  );
  const answer = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setQuestion(null);
  };
  const dialog = question ? (
    <Dialog
      open
      onOpenChange={(open) => !open && answer(false)}
      title={question.title}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => answer(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => answer(true)}>
            {question.confirmLabel}
          </Button>
        </>
      }
    >
      <p className="text-sm text-mist-200">{question.message}</p>
    </Dialog>
  ) : null;
  return { ask, dialog };
}
