import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { useSystemOutbox } from '../api/admin-queries.ts';

/** System mail that stayed here because no mail server is configured (or it failed): nothing is silently dropped. */
export function SystemOutboxCard() {
  const outbox = useSystemOutbox();
  const messages = outbox.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>System Outbox</CardTitle>
        <CardDescription>
          Approval notices and reset links that were not sent through a mail server. Set SYSTEM_SMTP_URL to
          deliver them.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {messages.length === 0 && <p className="text-sm text-muted-foreground">The outbox is empty.</p>}
        {messages.map((m) => (
          <details key={m.id} className="rounded-md border border-border p-3 text-sm">
            <summary className="cursor-pointer">
              <span className="font-medium">{m.subject}</span> to {m.to} · {formatMoment(m.createdAt)}
            </summary>
            <pre className="mt-2 whitespace-pre-wrap font-sans text-muted-foreground">{m.text}</pre>
          </details>
        ))}
      </CardContent>
    </Card>
  );
}
