import { Construction } from 'lucide-react';

/**
 * The honest empty state of a screen that a later release builds (issue 2 item 9): its title, and a plain
 * statement that it does not work yet. Nothing on it pretends.
 */
export function NotBuiltYet({ title, subtitle, what }: { title: string; subtitle?: string; what: string }) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {subtitle && <p className="text-muted-foreground">{subtitle}</p>}
      </div>
      <div
        role="status"
        className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border p-12 text-center"
      >
        <Construction className="size-10 text-muted-foreground" aria-hidden />
        <p className="font-medium">Not available yet</p>
        <p className="max-w-md text-sm text-muted-foreground">
          {what} This screen is part of an upcoming release of this instance.
        </p>
      </div>
    </div>
  );
}

export function NotFoundPage() {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-2 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-muted-foreground">There is nothing at this address.</p>
      <a className="text-primary hover:underline" href="/contacts">
        Go to Contacts
      </a>
    </div>
  );
}
