import { ImagePlus, Loader2, Save, X } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type KeyboardEvent, useState } from 'react';
import { productCreateSchema, type ProductCreate } from '../../../../contracts/shop';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../../../contracts/images';
import { SHOP_CATEGORIES, SHOP_MESSAGES, type ShopCategory } from '../../../../contracts/shop-values';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/http';
import { FilePicker, UploadProgress } from '../../../components/ui/file-picker';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/ui/form-controls';
import { uploadProductImage } from '../api/admin-products';
import { addTag, productBody, type ProductForm } from '../lib/product-form';

const categoryOptions = SHOP_CATEGORIES.map((c) => ({ value: c, label: c[0]?.toUpperCase() + c.slice(1) }));

export interface ProductFormCardProps {
  /** The product's id: kept when editing, `product_<timestamp>` when new. */
  id: string;
  isNew: boolean;
  initial: ProductForm;
  saving: boolean;
  onSave: (body: ProductCreate) => void;
  onCancel: () => void;
}

/** Create/edit form of the shop admin (price step 0.01, rating 1-5 step 0.1, reviews >= 0, no duplicate tags). */
export function ProductFormCard({ id, isNew, initial, saving, onSave, onCancel }: ProductFormCardProps) {
  const [form, setForm] = useState<ProductForm>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  // null while the upload's size is unknown; undefined when no upload runs.
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const uploading = progress !== undefined;
  const set = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const text = (key: 'name' | 'price' | 'originalPrice' | 'description' | 'sizes' | 'colors' | 'rating' | 'reviews' | 'redbubbleUrl') => ({
    value: form[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.target.value),
  });

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size >= IMAGE_MAX_BYTES) {
      setProblem(IMAGE_MESSAGES.tooLarge);
      return;
    }
    setProgress(null);
    try {
      const url = await uploadProductImage(file, (p) => setProgress(p.total ? p.loaded / p.total : null));
      setForm((f) => ({ ...f, images: [...f.images, url] }));
      setProblem(null);
    } catch (err) {
      const message = errorMessage(err, '');
      setProblem(message ? `Upload failed: ${message}` : SHOP_MESSAGES.uploadFailed);
    } finally {
      setProgress(undefined);
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = productCreateSchema.safeParse({ id, ...productBody(form) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setProblem(issue ? `${issue.path.join('.') ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'Please check the form');
      return;
    }
    setProblem(null);
    onSave(parsed.data);
  }

  return (
    <Card highlight padding="lg">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label={isNew ? 'Add product' : 'Edit product'}>
        <div className="flex items-center justify-between gap-3">
          <h2 className="font-display text-xl font-bold text-white">{isNew ? 'Add Product' : 'Edit Product'}</h2>
          <code className="truncate text-xs text-mist-500">{id}</code>
        </div>
        {problem && (
          <p role="alert" className="rounded-xl border border-rose-500/40 bg-rose-500/10 px-4 py-3 text-sm text-rose-100">
            {problem}
          </p>
        )}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField label="Name" className="sm:col-span-2" maxLength={200} required {...text('name')} />
          <TextField label="Price (€)" type="number" step="0.01" min="0" inputMode="decimal" required {...text('price')} />
          <TextField label="Original price (€)" type="number" step="0.01" min="0" inputMode="decimal" hint="Shows SALE when set" {...text('originalPrice')} />
          <SelectField label="Category" value={form.category} onChange={(e) => set('category', e.target.value as ShopCategory)} options={categoryOptions} />
          <TextField label="Rating" type="number" step="0.1" min="1" max="5" {...text('rating')} />
          <TextField label="Reviews" type="number" step="1" min="0" {...text('reviews')} />
          <TextField label="Store link" type="url" placeholder="https://www.redbubble.com/..." maxLength={2000} {...text('redbubbleUrl')} />
          <TextField label="Sizes" placeholder="S, M, L, XL" className="sm:col-span-2" {...text('sizes')} />
          <TextField label="Colors" placeholder="Black, Navy" className="sm:col-span-2" {...text('colors')} />
        </div>
        <TextAreaField label="Description" maxLength={5000} {...text('description')} />

        <TagsField tags={form.tags} onTags={(tags) => set('tags', tags)} onProblem={setProblem} />
        <ImagesField images={form.images} onImages={(images) => set('images', images)} progress={progress} onFile={(e) => void onFile(e)} />

        <div className="flex flex-wrap gap-x-6">
          <CheckboxField label="Active (shown in the shop)" checked={form.isActive} onChange={(e) => set('isActive', e.target.checked)} />
          <CheckboxField label="In stock" checked={form.inStock} onChange={(e) => set('inStock', e.target.checked)} />
          <CheckboxField label="Featured" checked={form.featured} onChange={(e) => set('featured', e.target.checked)} />
        </div>

        <div className="flex flex-col-reverse gap-2 border-t border-white/10 pt-4 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving || uploading}>
            <Save className="size-4" aria-hidden="true" /> {saving ? 'Saving...' : isNew ? 'Create Product' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The tags with Remove, and a new tag added on Enter, comma or Add Tag (no duplicates). */
function TagsField({ tags, onTags, onProblem }: { tags: string[]; onTags: (tags: string[]) => void; onProblem: (problem: string | null) => void }) {
  const [tagDraft, setTagDraft] = useState('');

  function commitTag() {
    const { tags: next, error } = addTag(tags, tagDraft);
    onProblem(error);
    if (!error) {
      onTags(next);
      setTagDraft('');
    }
  }

  function onTagKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      commitTag();
    }
  }

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-xs font-medium tracking-wide text-mist-300">Tags</legend>
      <div className="flex flex-wrap gap-2">
        {tags.map((t) => (
          <span
            key={t}
            className="inline-flex items-center gap-1 rounded-full bg-deep-500/15 py-1 pr-1 pl-3 text-xs font-medium text-deep-300 ring-1 ring-deep-400/30"
          >
            {t}
            <button
              type="button"
              aria-label={`Remove tag ${t}`}
              onClick={() => onTags(tags.filter((x) => x !== t))}
              className="rounded-full p-0.5 hover:bg-white/10"
            >
              <X className="size-3.5" aria-hidden="true" />
            </button>
          </span>
        ))}
      </div>
      <div className="flex gap-2">
        <input
          aria-label="New tag"
          value={tagDraft}
          maxLength={60}
          onChange={(e) => setTagDraft(e.target.value)}
          onKeyDown={onTagKey}
          placeholder="Type a tag, press Enter"
          className="h-11 min-w-0 flex-1 rounded-xl border border-white/10 bg-night-900/70 px-3.5 text-sm text-mist-100 focus:border-aqua-400/60 focus:outline-none"
        />
        <Button variant="secondary" onClick={commitTag}>
          Add Tag
        </Button>
      </div>
    </fieldset>
  );
}

/** The product's images with Remove, an image added by URL, and an upload with its progress. */
function ImagesField({
  images,
  onImages,
  progress,
  onFile,
}: {
  images: string[];
  onImages: (images: string[]) => void;
  /** null while the upload's size is unknown; undefined when no upload runs. */
  progress: number | null | undefined;
  onFile: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  const [imageDraft, setImageDraft] = useState('');
  const uploading = progress !== undefined;

  function addImageUrl() {
    const url = imageDraft.trim();
    if (!url) return;
    onImages([...images, url]);
    setImageDraft('');
  }

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-xs font-medium tracking-wide text-mist-300">Images</legend>
      {images.length > 0 && (
        <ul className="flex flex-wrap gap-3">
          {images.map((src, i) => (
            <li key={`${src}-${i}`} className="relative">
              <img src={src} alt="" width={80} height={80} className="size-20 rounded-xl bg-night-800 object-cover ring-1 ring-white/10" />
              <button
                type="button"
                aria-label="Remove image"
                onClick={() => onImages(images.filter((_, j) => j !== i))}
                className="absolute -top-2 -right-2 grid size-6 place-items-center rounded-full bg-rose-600 text-white shadow"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          aria-label="Image URL"
          value={imageDraft}
          onChange={(e) => setImageDraft(e.target.value)}
          placeholder="https://... or /images/..."
          maxLength={2000}
          className="h-11 min-w-0 flex-1 rounded-xl border border-white/10 bg-night-900/70 px-3.5 text-sm text-mist-100 focus:border-aqua-400/60 focus:outline-none"
        />
        <Button variant="secondary" onClick={addImageUrl}>
          Add URL
        </Button>
        <FilePicker
          appearance="button"
          label={uploading ? 'Uploading...' : 'Upload Image'}
          icon={uploading ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <ImagePlus className="size-4" aria-hidden="true" />}
          accept="image/jpeg,image/png,image/webp,image/gif"
          onChange={onFile}
          disabled={uploading}
        />
      </div>
      {uploading && <UploadProgress value={progress} label="Image upload" />}
      <p className="text-xs text-mist-500">JPEG, PNG, WebP or GIF under 5MB.</p>
    </fieldset>
  );
}
