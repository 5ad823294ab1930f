import { Dialog } from '../../../components/ui/dialog';
import CommentsSectionBody, { type CommentsSectionProps } from './comments-section-body';

/** The comments of one discussion in a modal. */
export default function CommentsDialog({
  open,
  onOpenChange,
  title = 'Community Comments',
  ...section
}: CommentsSectionProps & { open: boolean; onOpenChange: (open: boolean) => void; title?: string }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description="Talk music with the Deep House Radio family" size="lg">
      <CommentsSectionBody {...section} />
    </Dialog>
  );
}
