import { Suspense } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '../../../components/ui/page-container';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ProfileDialog } from '../components/lazy-dialogs';

/** /profile/:id (the sitemap's and link previews' address of a public profile): the member's profile, over the community page. */
export default function ProfilePage() {
  useDocumentTitle('Member profile');
  const { id = '' } = useParams<{ id: string }>();
  const navigate = useNavigate();
  return (
    <PageContainer className="py-10 sm:py-14">
      <h1 className="font-display text-3xl font-bold text-white">Member profile</h1>
      <Suspense fallback={null}>
        <ProfileDialog userId={id} open onOpenChange={(open) => !open && void navigate('/forum')} />
      </Suspense>
    </PageContainer>
  );
}
