import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** A styled native <select>: accessible and keyboard-friendly by construction. */
export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
      {...props}
    />
  );
}
