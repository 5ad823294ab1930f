import { Plus } from 'lucide-react';
import { useState } from 'react';
import { access } from '../../../../contracts/access-policy';
import type { ProductCreate, ShopProduct } from '../../../../contracts/shop';
import { DEFAULT_STORE_URL } from '../../../../contracts/shop-catalogue';
import { newProductId, SHOP_MESSAGES } from '../../../../contracts/shop-values';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AdminPageHeader, StickyStatus, useStatusMessage } from '../../admin';
import { AccessGate, useSiteConfig } from '../../auth';
import { useAdminProducts, useCreateProduct, useDeleteProduct, useUpdateProduct } from '../api/admin-products';
import { AdminProductCard } from '../components/admin-product-card';
import { ProductFormCard } from '../components/product-form';
import { EMPTY_PRODUCT_FORM, formFromProduct } from '../lib/product-form';

/** /shop-admin. */
export default function ShopAdminPage() {
  useDocumentTitle('Shop Management');
  return (
    <AccessGate policy={access.admin}>
      <ShopAdmin />
    </AccessGate>
  );
}

type Editing = { id: string; isNew: true } | { id: string; isNew: false; product: ShopProduct } | null;

function ShopAdmin() {
  const products = useAdminProducts();
  const site = useSiteConfig();
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const remove = useDeleteProduct();
  const confirm = useConfirm();
  const status = useStatusMessage();
  const [editing, setEditing] = useState<Editing>(null);
  const storeUrl = site.data?.shopStoreUrl ?? DEFAULT_STORE_URL;

  function save(body: ProductCreate) {
    if (!editing) return;
    const done = {
      onSuccess: () => {
        status.success(editing.isNew ? 'Product created' : 'Product saved');
        setEditing(null);
      },
      onError: (err: Error) => {
        console.warn('Saving the product failed:', err.message);
        status.error(errorMessage(err, 'Failed to save product'));
      },
    };
    if (editing.isNew) create.mutate(body, done);
    else {
      const { id: _id, ...patch } = body;
      update.mutate({ id: editing.id, patch }, done);
    }
  }

  function toggle(p: ShopProduct, field: 'isActive' | 'inStock' | 'featured') {
    update.mutate({ id: p.id, patch: { [field]: !p[field] } }, { onError: (err) => status.error(errorMessage(err, 'Failed to update product')) });
  }

  async function del(p: ShopProduct) {
    if (!(await confirm.ask({ title: 'Delete the product', message: SHOP_MESSAGES.deleteConfirm, confirmLabel: 'Delete' }))) return;
    remove.mutate(p.id, {
      onSuccess: () => status.success('Product deleted'),
      onError: (err) => status.error(errorMessage(err, 'Failed to delete product')),
    });
  }

  const list = products.data ?? [];
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:gap-8 sm:py-12">
      <AdminPageHeader
        backTo="/admin-dashboard"
        backLabel="Dashboard"
        title="Shop Management"
        description="Products, prices and stock of the merch shop."
        detail={
          <p className="mt-1 text-sm font-semibold text-mist-200" data-testid="product-count">
            {products.isPending ? 'Loading products...' : products.isError ? '–' : `${list.length} product${list.length === 1 ? '' : 's'}`}
          </p>
        }
        actions={
          <Button size="sm" onClick={() => setEditing({ id: newProductId(), isNew: true })} disabled={editing?.isNew === true}>
            <Plus className="size-4" aria-hidden="true" /> Add Product
          </Button>
        }
      />
      <StickyStatus message={status.message} />
      {confirm.dialog}

      {editing && (
        <ProductFormCard
          key={editing.id}
          id={editing.id}
          isNew={editing.isNew}
          initial={editing.isNew ? EMPTY_PRODUCT_FORM : formFromProduct(editing.product)}
          saving={create.isPending || update.isPending}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      )}

      {products.isPending ? (
        <PageSpinner label="Loading products..." />
      ) : products.isError ? (
        <LoadError what="the products" onRetry={() => void products.refetch()} retrying={products.isFetching} />
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {list.map((p) => (
            <li key={p.id} className="flex [&>article]:flex-1">
              <AdminProductCard
                product={p}
                storeUrl={storeUrl}
                busy={update.isPending || remove.isPending}
                onEdit={() => {
                  setEditing({ id: p.id, isNew: false, product: p });
                  window.scrollTo({ top: 0, behavior: 'smooth' });
                }}
                onDelete={() => del(p)}
                onToggle={(field) => toggle(p, field)}
              />
            </li>
          ))}
        </ul>
      )}
    </PageContainer>
  );
}
