/** An address the app has no screen for. */
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
