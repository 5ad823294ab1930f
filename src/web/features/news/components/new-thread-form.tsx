import { useState, type FormEvent, type Ref } from 'react';
import { FORUM_BODY_MAX, FORUM_MESSAGES, FORUM_POST_CATEGORIES, FORUM_TITLE_MAX, type ForumPostCategory } from '../../../../contracts/news-values';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/form-controls';
import { errorMessage } from '../../../lib/http';
import { useCreateForumPost } from '../api/create-forum-post';

const CATEGORY_LABEL: Record<ForumPostCategory, string> = { discussion: 'Discussion', events: 'Events', releases: 'Releases' };
const categoryOptions = FORUM_POST_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABEL[c] }));

/** Start a thread: title, category, text. */
export function NewThreadForm({ onDone, titleRef }: { onDone?: () => void; titleRef?: Ref<HTMLInputElement> }) {
  const create = useCreateForumPost();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [category, setCategory] = useState<ForumPostCategory>('discussion');
  const [notice, setNotice] = useState<string | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    create.mutate(
      { title: title.trim(), body: body.trim(), category },
      {
        onSuccess: (post) => {
          setTitle('');
          setBody('');
          setNotice(post.status === 'pending' ? FORUM_MESSAGES.pending : FORUM_MESSAGES.posted);
          onDone?.();
        },
      },
    );
  }

  return (
    <Card>
      <h2 className="font-display text-lg font-bold text-white">Start a thread</h2>
      <form onSubmit={submit} className="mt-4 space-y-3" aria-label="Start a thread">
        <TextField
          ref={titleRef}
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={FORUM_TITLE_MAX}
          minLength={3}
          required
          placeholder="What's on your mind?"
        />
        <SelectField label="Category" value={category} onChange={(e) => setCategory(e.target.value as ForumPostCategory)} options={categoryOptions} />
        <TextAreaField
          label="Message"
          className="[&_textarea]:resize-y"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          maxLength={FORUM_BODY_MAX}
          required
          placeholder="Tell the community…"
        />
        {create.isError && (
          <p role="alert" className="rounded-xl bg-rose-500/10 px-3 py-2 text-sm text-rose-200">
            {errorMessage(create.error, FORUM_MESSAGES.failed)}
          </p>
        )}
        {notice && (
          <p role="status" className="rounded-xl bg-emerald-500/10 px-3 py-2 text-sm text-emerald-200">
            {notice}
          </p>
        )}
        <Button type="submit" disabled={create.isPending} className="w-full">
          {create.isPending ? 'Posting…' : 'Post thread'}
        </Button>
      </form>
    </Card>
  );
}
