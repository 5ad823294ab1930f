import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold tracking-wide whitespace-nowrap transition ' +
  'duration-200 select-none disabled:cursor-not-allowed disabled:opacity-50 [&_svg]:shrink-0';

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-gradient-to-r from-deep-600 via-violet-500 to-aqua-500 text-white shadow-[0_10px_30px_-10px_rgb(124_58_237/0.8)] ' +
    'hover:brightness-110 hover:shadow-[0_12px_36px_-10px_rgb(34_211_238/0.6)] active:brightness-95',
  secondary: 'glass text-mist-100 hover:border-white/20 hover:bg-white/10',
  ghost: 'text-mist-200 hover:bg-white/5 hover:text-white',
  danger: 'bg-rose-600/90 text-white hover:bg-rose-500',
};

const sizes: Record<ButtonSize, string> = {
  // 44 px touch targets below the desktop layout.
  sm: 'h-11 px-4 text-sm lg:h-9',
  md: 'h-11 px-5 text-sm',
  lg: 'h-13 px-7 text-base',
};

/** The classes of a button, for elements that are not <button> or <Link>. */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string): string {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant = 'primary', size = 'md', className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...rest} />;
}

export interface ButtonLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An in-app path (client-side navigation). */
  to?: string;
  /** An external address; opens in a new tab. */
  href?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  children: ReactNode;
}

/** A link that looks like a button: `to` for app pages, `href` for other sites. */
export function ButtonLink({ to, href, variant = 'primary', size = 'md', className, children, ...rest }: ButtonLinkProps) {
  const classes = buttonClasses(variant, size, className);
  if (to !== undefined) {
    return (
      <Link to={to} className={classes} {...rest}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={classes} {...rest}>
      {children}
    </a>
  );
}
