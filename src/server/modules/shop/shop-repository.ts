import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { shopProducts } from '../../db/schema';

export type ShopProductRow = typeof shopProducts.$inferSelect;
export type NewShopProductRow = typeof shopProducts.$inferInsert;

export class ProductExistsError extends Error {}

/** Active products for the shop, featured first, then newest. */
export async function listActiveProducts(db: Db): Promise<ShopProductRow[]> {
  return db
    .select()
    .from(shopProducts)
    .where(eq(shopProducts.isActive, true))
    .orderBy(desc(shopProducts.featured), desc(shopProducts.createdAt), asc(shopProducts.id));
}

/** Every product, for the shop admin. */
export async function listAllProducts(db: Db): Promise<ShopProductRow[]> {
  return db.select().from(shopProducts).orderBy(desc(shopProducts.createdAt), asc(shopProducts.id));
}

export async function insertProduct(db: Db, values: NewShopProductRow): Promise<ShopProductRow> {
  try {
    const rows = await db.insert(shopProducts).values(values).returning();
    const row = rows[0];
    if (!row) throw new Error('product insert returned nothing');
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ProductExistsError();
    throw err;
  }
}

export async function updateProduct(db: Db, id: string, values: Partial<Omit<NewShopProductRow, 'id'>>): Promise<ShopProductRow | null> {
  const rows = await db
    .update(shopProducts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(shopProducts.id, id))
    .returning();
  return rows[0] ?? null;
}

export async function deleteProduct(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(shopProducts).where(eq(shopProducts.id, id)).returning({ id: shopProducts.id });
  return rows.length > 0;
}
