import { BadgeCheck, RotateCcw, ShieldCheck, Truck } from 'lucide-react';
import { FREE_SHIPPING_OVER_EUR, RETURNS_DAYS } from '../../../../contracts/shop-values';

const TILES = [
  { icon: Truck, title: 'Free Shipping', text: `On orders over €${FREE_SHIPPING_OVER_EUR}` },
  { icon: ShieldCheck, title: 'Secure Payment', text: 'Checkout on Redbubble' },
  { icon: RotateCcw, title: 'Easy Returns', text: `${RETURNS_DAYS}-day return policy` },
  { icon: BadgeCheck, title: 'Quality Guarantee', text: 'Printed to order, built to last' },
];

/** The four promises under the grid. */
export function InfoTiles() {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-label="Why shop with us">
      {TILES.map((t) => (
        <li key={t.title} className="glass flex flex-col items-center gap-2 rounded-2xl p-4 text-center sm:flex-row sm:items-start sm:text-left">
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-gradient-to-br from-deep-600/40 to-aqua-500/25 text-aqua-300 ring-1 ring-white/10">
            <t.icon className="size-5" aria-hidden="true" />
          </span>
          <span>
            <span className="block text-sm font-semibold text-white">{t.title}</span>
            <span className="block text-xs text-mist-400">{t.text}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
