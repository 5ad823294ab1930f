import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A home block whose content (and its code, when the content is a lazy component) is rendered only
 * once the block comes near the screen, like the news ticker (news' lazy-news-ticker.tsx): far below
 * the player, it is no weight on the first load of `/` (docs/decisions/0010-web-gate-and-first-load.md).
 * The block itself is there at once, with its usual height, so its arrival moves nothing.
 */
export function NearScreenBlock({ id, className, children }: { id?: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '0px 0px 50% 0px' });
    io.observe(el);
    return () => io.disconnect();
  }, [near]);
  return (
    <div ref={ref} id={id} className={className}>
      {near && children}
    </div>
  );
}
