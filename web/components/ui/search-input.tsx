import type { ComponentProps } from 'react';
import { Search } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { Input } from './input.tsx';

/** A text box with a magnifier, for filters typed on the server (at most 200 characters, as the servers accept). */
export function SearchInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <div className={cn('relative max-w-md', className)}>
      <Search className="absolute top-2.5 left-2 size-4 text-muted-foreground" aria-hidden />
      <Input className="pl-8" maxLength={200} {...props} />
    </div>
  );
}
