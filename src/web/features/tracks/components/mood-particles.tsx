import { useEffect, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import { MOOD_PRESETS, type Mood } from '../lib/mood';

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  useEffect(() => {
    const mq = window.matchMedia('(prefers-reduced-motion: reduce)');
    const on = () => setReduced(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return reduced;
}

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  r: number;
  phase: number;
  color: string;
}

/**
 * The live track card's particle background: count, colours and pace follow the track's mood.
 * It stops drawing while the tab is hidden and is not drawn at all under prefers-reduced-motion.
 */
export function MoodParticles({ mood, className }: { mood: Mood; className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const reduced = usePrefersReducedMotion();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || reduced) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const preset = MOOD_PRESETS[mood];
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    let width = 0;
    let height = 0;
    const resize = () => {
      width = canvas.clientWidth;
      height = canvas.clientHeight;
      canvas.width = Math.max(1, Math.round(width * dpr));
      canvas.height = Math.max(1, Math.round(height * dpr));
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    };
    resize();
    const particles: Particle[] = Array.from({ length: preset.particleCount }, (_, i) => {
      const angle = Math.random() * Math.PI * 2;
      const speed = preset.speed * (0.3 + Math.random() * 0.7);
      return {
        x: Math.random() * width,
        y: Math.random() * height,
        vx: Math.cos(angle) * speed,
        vy: Math.sin(angle) * speed - preset.speed * 0.2,
        r: 0.8 + Math.random() * 2.2,
        phase: Math.random() * Math.PI * 2,
        color: preset.colors[i % preset.colors.length] ?? '#a78bfa',
      };
    });

    let frame = 0;
    let last = performance.now();
    const draw = (now: number) => {
      const dt = Math.min(3, (now - last) / 16.67);
      last = now;
      ctx.clearRect(0, 0, width, height);
      ctx.globalAlpha = preset.opacity;
      ctx.shadowBlur = preset.blur;
      for (const p of particles) {
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        if (p.x < -5) p.x = width + 5;
        else if (p.x > width + 5) p.x = -5;
        if (p.y < -5) p.y = height + 5;
        else if (p.y > height + 5) p.y = -5;
        p.phase += 0.03 * dt;
        const r = preset.pulse ? p.r * (0.75 + 0.35 * Math.sin(p.phase)) : p.r;
        ctx.shadowColor = p.color;
        ctx.fillStyle = p.color;
        ctx.beginPath();
        ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
        ctx.fill();
      }
      frame = requestAnimationFrame(draw);
    };
    const start = () => {
      if (frame === 0 && document.visibilityState === 'visible') {
        last = performance.now();
        frame = requestAnimationFrame(draw);
      }
    };
    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stop());
    document.addEventListener('visibilitychange', onVisibility);
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    start();
    return () => {
      stop();
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [mood, reduced]);

  if (reduced) return null;
  return <canvas ref={canvasRef} aria-hidden="true" data-mood={mood} className={cn('pointer-events-none absolute inset-0 size-full', className)} />;
}
