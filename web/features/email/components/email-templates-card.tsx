import { useState } from 'react';
import { toast } from 'sonner';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import type { EmailTemplate } from '#domain/email/email.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDeleteTemplate, useEmailTemplates } from '../api/email-queries.ts';
import { TemplateDialog } from './template-dialog.tsx';

/** Settings → Email, templates: list, create, edit, delete, and the default one. */
export function EmailTemplatesCard() {
  const templates = useEmailTemplates();
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<EmailTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<EmailTemplate | null>(null);

  if (templates.isError) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Email Templates</CardTitle>
        </CardHeader>
        <CardContent role="alert" className="flex items-center gap-3 text-sm">
          Error loading templates: {templates.error.message}
          <Button variant="outline" size="sm" onClick={() => void templates.refetch()}>
            Try Again
          </Button>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Email Templates</CardTitle>
          <CardDescription>
            Reusable e-mails with merge fields such as {'{{firstName}}'}, filled in for each contact. The
            default template is chosen for you in Send Email.
          </CardDescription>
        </div>
        <Button className="ml-auto" onClick={() => setEditing('new')}>
          <Plus /> New template
        </Button>
      </CardHeader>
      <CardContent>
        {templates.isPending ? (
          <Spinner />
        ) : templates.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No templates yet.</p>
        ) : (
          <ul aria-label="Email templates" className="flex flex-col divide-y divide-border">
            {templates.data.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="flex min-w-0 flex-col">
                  <span className="font-medium">
                    {t.name}
                    {t.isDefault && (
                      <Badge variant="secondary" className="ml-2">
                        Default
                      </Badge>
                    )}
                  </span>
                  <span className="truncate text-sm text-muted-foreground">{t.subject}</span>
                </div>
                <div className="ml-auto flex gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setEditing(t)}
                    aria-label={`Edit ${t.name}`}
                  >
                    <Pencil /> Edit
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setDeleting(t)}
                    aria-label={`Delete ${t.name}`}
                  >
                    <Trash2 /> Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <TemplateDialog
        template={editing === 'new' ? null : editing}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this template?"
        description={`"${deleting?.name ?? ''}" will be deleted. E-mails already sent with it are kept.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Template deleted');
              setDeleting(null);
            },
            onError: (error) => toast.error('Error deleting template', { description: error.message }),
          })
        }
      />
    </Card>
  );
}
