import type { ProductCreate, ShopProduct } from '../../../../contracts/shop';
import { hasDuplicateTags, SHOP_MESSAGES, type ShopCategory } from '../../../../contracts/shop-values';

/** The shop admin form's fields as the inputs hold them (text). */
export interface ProductForm {
  name: string;
  price: string;
  originalPrice: string;
  category: ShopCategory;
  images: string[];
  description: string;
  sizes: string;
  colors: string;
  rating: string;
  reviews: string;
  tags: string[];
  redbubbleUrl: string;
  inStock: boolean;
  featured: boolean;
  isActive: boolean;
}

export const EMPTY_PRODUCT_FORM: ProductForm = {
  name: '',
  price: '',
  originalPrice: '',
  category: 'clothing',
  images: [],
  description: '',
  sizes: '',
  colors: '',
  rating: '5',
  reviews: '0',
  tags: [],
  redbubbleUrl: '',
  inStock: true,
  featured: false,
  isActive: true,
};

export function formFromProduct(p: ShopProduct): ProductForm {
  return {
    name: p.name,
    price: String(p.price),
    originalPrice: p.originalPrice === null ? '' : String(p.originalPrice),
    category: p.category as ShopCategory,
    images: p.images,
    description: p.description,
    sizes: (p.sizes ?? []).join(', '),
    colors: (p.colors ?? []).join(', '),
    rating: String(p.rating),
    reviews: String(p.reviews),
    tags: p.tags,
    redbubbleUrl: p.redbubbleUrl ?? '',
    inStock: p.inStock,
    featured: p.featured,
    isActive: p.isActive,
  };
}

const csv = (s: string) => {
  const list = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return list.length ? list : null;
};

/** Adds a tag unless it is empty or already there (tags cannot be duplicated). */
export function addTag(tags: readonly string[], tag: string): { tags: string[]; error: string | null } {
  const t = tag.trim();
  if (!t) return { tags: [...tags], error: null };
  if (hasDuplicateTags([...tags, t])) return { tags: [...tags], error: SHOP_MESSAGES.duplicateTags };
  return { tags: [...tags, t], error: null };
}

/** The body the API takes, from the form's text. Numbers the inputs could not read become NaN and the server says why. */
export function productBody(form: ProductForm): Omit<ProductCreate, 'id'> {
  return {
    name: form.name.trim(),
    price: Number(form.price),
    originalPrice: form.originalPrice.trim() ? Number(form.originalPrice) : null,
    category: form.category,
    images: form.images,
    description: form.description.trim(),
    sizes: csv(form.sizes),
    colors: csv(form.colors),
    rating: Number(form.rating),
    reviews: Number(form.reviews),
    tags: form.tags,
    redbubbleUrl: form.redbubbleUrl.trim() || null,
    inStock: form.inStock,
    featured: form.featured,
    isActive: form.isActive,
  };
}
