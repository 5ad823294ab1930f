import type { ShopProduct } from '../../../contracts/shop';
import type { ShopProductRow } from './shop-repository';

export function toShopProduct(r: ShopProductRow): ShopProduct {
  return {
    id: r.id,
    name: r.name,
    price: Number(r.price),
    originalPrice: r.originalPrice === null ? null : Number(r.originalPrice),
    category: r.category,
    images: r.images,
    description: r.description,
    sizes: r.sizes,
    colors: r.colors,
    rating: Number(r.rating),
    reviews: r.reviews,
    inStock: r.inStock,
    featured: r.featured,
    tags: r.tags,
    isActive: r.isActive,
    redbubbleUrl: r.redbubbleUrl,
    createdAt: r.createdAt.toISOString(),
  };
}
