import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

const badgeVariants = cva(
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold',
  {
    variants: {
      variant: {
        default: 'border-transparent bg-primary text-primary-foreground',
        secondary: 'border-transparent bg-secondary text-secondary-foreground',
        destructive: 'border-transparent bg-destructive text-destructive-foreground',
        outline: 'text-foreground border-border',
        yellow: 'border-transparent bg-yellow-500/20 text-yellow-700 dark:text-yellow-300',
        blue: 'border-transparent bg-blue-500/20 text-blue-700 dark:text-blue-300',
        green: 'border-transparent bg-green-500/20 text-green-700 dark:text-green-300',
        grey: 'border-transparent bg-slate-500/20 text-slate-700 dark:text-slate-300',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export function Badge({
  className,
  variant,
  ...props
}: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
