import type { ReactNode } from 'react';
import { ExternalLink, Minus, Plus, ShoppingBag, Trash2 } from 'lucide-react';
import type { ShopProduct } from '../../../../contracts/shop';
import { FREE_SHIPPING_OVER_EUR } from '../../../../contracts/shop-values';
import { Button } from '../../../components/ui/button';
import { Sheet } from '../../../components/ui/dialog';
import { cartCount, cartTotal, type CartLine } from '../lib/cart';
import { formatEuro } from '../../../lib/numbers';

export interface CartPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  cart: CartLine[];
  productOf: (id: string) => ShopProduct | undefined;
  onQuantity: (id: string, quantity: number) => void;
  onCheckout: () => void;
}

/** The cart side panel: lines with +/-, count and total, checkout to the store. */
export function CartPanel({ open, onOpenChange, cart, productOf, onQuantity, onCheckout }: CartPanelProps) {
  const count = cartCount(cart);
  const total = cartTotal(cart, (id) => productOf(id)?.price);
  const toFreeShipping = Math.max(0, FREE_SHIPPING_OVER_EUR - total);
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title={
        <>
          <ShoppingBag className="size-5 text-aqua-300" aria-hidden="true" /> Your Cart ({count})
        </>
      }
      description="Products in your cart, their quantities and the total."
      closeLabel="Close cart"
      className="w-full max-w-md"
      headerClassName="border-b border-white/10 px-5 py-4"
    >
      {cart.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center text-mist-400">
          <ShoppingBag className="size-10" aria-hidden="true" />
          <p>Your cart is empty.</p>
        </div>
      ) : (
        <ul className="flex-1 divide-y divide-white/5 overflow-y-auto px-5" aria-label="Cart items">
          {cart.map((line) => {
            const p = productOf(line.id);
            if (!p) return null;
            return (
              <li key={line.id} className="flex gap-3 py-4" data-testid="cart-line">
                {p.images[0] && <img src={p.images[0]} alt="" width={64} height={64} className="size-16 shrink-0 rounded-xl bg-night-800 object-cover" />}
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <div className="flex items-start justify-between gap-2">
                    <p className="min-w-0 text-sm leading-snug font-medium text-white">{p.name}</p>
                    <p className="shrink-0 text-sm font-semibold text-white tabular-nums">{formatEuro(p.price * line.quantity)}</p>
                  </div>
                  <div className="flex items-center gap-1">
                    <QtyButton label={line.quantity === 1 ? `Remove ${p.name}` : `One less ${p.name}`} onClick={() => onQuantity(line.id, line.quantity - 1)}>
                      {line.quantity === 1 ? <Trash2 className="size-4" aria-hidden="true" /> : <Minus className="size-4" aria-hidden="true" />}
                    </QtyButton>
                    <span className="w-8 text-center text-sm text-white tabular-nums" aria-label="Quantity">
                      {line.quantity}
                    </span>
                    <QtyButton label={`One more ${p.name}`} onClick={() => onQuantity(line.id, line.quantity + 1)}>
                      <Plus className="size-4" aria-hidden="true" />
                    </QtyButton>
                    <span className="ml-auto text-xs text-mist-500">{formatEuro(p.price)} each</span>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex flex-col gap-3 border-t border-white/10 px-5 py-5">
        {cart.length > 0 && (
          <p className="text-xs text-mist-400">{toFreeShipping > 0 ? `Add ${formatEuro(toFreeShipping)} more for free shipping.` : 'Your order ships free.'}</p>
        )}
        <div className="flex items-baseline justify-between">
          <span className="text-sm text-mist-300">Total</span>
          <span className="font-display text-2xl font-bold text-white tabular-nums" data-testid="cart-total">
            {formatEuro(total)}
          </span>
        </div>
        <Button size="lg" onClick={onCheckout} disabled={cart.length === 0}>
          <ExternalLink className="size-4" aria-hidden="true" /> Checkout
        </Button>
        <p className="text-center text-xs text-mist-500">Checkout continues on our Redbubble store in a new tab.</p>
      </div>
    </Sheet>
  );
}

function QtyButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="grid size-9 place-items-center rounded-full bg-white/5 text-mist-200 ring-1 ring-white/10 transition hover:bg-white/10 hover:text-white"
    >
      {children}
    </button>
  );
}
