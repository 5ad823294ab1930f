import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { imageUploadReplySchema, shopProductListSchema, ProductCreate, ProductPatch, ShopProduct } from '../../../../contracts/shop';
import { apiGet, apiSend, apiUpload, type UploadProgress, type ReplyOf } from '../../../lib/http';
import { shopKeys } from './keys';

/** GET /api/admin/shop/products: every product, inactive ones too. */
export const getAdminProducts = async (signal?: AbortSignal): Promise<ShopProduct[]> =>
  await apiGet<ReplyOf<typeof shopProductListSchema>>('/api/admin/shop/products', { signal });

export const adminProductsQueryOptions = () => queryOptions({ queryKey: shopKeys.admin, queryFn: ({ signal }) => getAdminProducts(signal), staleTime: 0 });
export const useAdminProducts = () => useQuery(adminProductsQueryOptions());

const path = (id: string) => `/api/admin/shop/products/${encodeURIComponent(id)}`;

/** Saves reload the list and the public catalogue. */
function useProductMutation<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: shopKeys.admin }), qc.invalidateQueries({ queryKey: shopKeys.products })]);
    },
  });
}

export const useCreateProduct = () => useProductMutation((p: ProductCreate) => apiSend<ShopProduct>('POST', '/api/admin/shop/products', p));
export const useUpdateProduct = () =>
  useProductMutation(({ id, patch }: { id: string; patch: ProductPatch }) => apiSend<ShopProduct>('PATCH', path(id), patch));
export const useDeleteProduct = () => useProductMutation((id: string) => apiSend<void>('DELETE', path(id)));

/** POST /api/admin/shop/upload-image (multipart field `image`); resolves to the stored image's URL. */
export async function uploadProductImage(file: File, onProgress?: (progress: UploadProgress) => void): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  return (await apiUpload<ReplyOf<typeof imageUploadReplySchema>>('/api/admin/shop/upload-image', form, onProgress)).imageUrl;
}
