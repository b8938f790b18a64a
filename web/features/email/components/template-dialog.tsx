import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { EmailTemplateInputSchema, type EmailTemplate } from '#domain/email/email.schema.ts';
import {
  MERGE_FIELDS,
  renderMergeFields,
  SAMPLE_CONTACT,
  type MergeField,
} from '#domain/email/merge-fields.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSaveTemplate } from '../api/email-queries.ts';

type Form = { name: string; subject: string; content: string; isDefault: boolean };
type Field = 'name' | 'subject' | 'content';

/** Create or edit a template (name, subject and content required), with merge fields and a preview. */
export function TemplateDialog({
  template,
  open,
  onOpenChange,
}: {
  template: EmailTemplate | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        {open && <TemplateForm template={template} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function TemplateForm({ template, onDone }: { template: EmailTemplate | null; onDone: () => void }) {
  const [form, setForm] = useState<Form>({
    name: template?.name ?? '',
    subject: template?.subject ?? '',
    content: template?.content ?? '',
    isDefault: template?.isDefault ?? false,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const content = useRef<HTMLTextAreaElement>(null);
  const save = useSaveTemplate();

  /** Inserts {{field}} where the cursor is in the message. */
  const insertField = (field: MergeField) => {
    const area = content.current;
    const token = `{{${field}}}`;
    const at = area?.selectionStart ?? form.content.length;
    const end = area?.selectionEnd ?? at;
    setForm({ ...form, content: form.content.slice(0, at) + token + form.content.slice(end) });
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = EmailTemplateInputSchema.safeParse(form);
    const next: Partial<Record<Field, string>> = {};
    for (const issue of result.error?.issues ?? []) next[issue.path[0] as Field] ??= issue.message;
    setErrors(next);
    if (!result.success) return;
    save.mutate(
      { id: template?.id ?? null, input: form },
      {
        onSuccess: () => {
          toast.success(template ? 'Template updated' : 'Template created');
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError)
            setErrors(
              Object.fromEntries(error.issues.map((i) => [i.path.replace(/^body\./, ''), i.message])),
            );
          toast.error('Error saving template', { description: error.message });
        },
      },
    );
  };

  const errorOf = (name: Field) =>
    errors[name] && (
      <p id={`template-${name}-error`} className="text-sm text-destructive">
        {errors[name]}
      </p>
    );

  return (
    <>
      <DialogHeader>
        <DialogTitle>{template ? 'Edit Template' : 'New Template'}</DialogTitle>
        <DialogDescription>
          Merge fields are filled in for each contact when the e-mail is written.
        </DialogDescription>
      </DialogHeader>
      <form className="grid gap-4 md:grid-cols-2" onSubmit={handleSubmit} noValidate>
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="template-name">Name</Label>
            <Input
              id="template-name"
              value={form.name}
              aria-invalid={errors.name ? true : undefined}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
            {errorOf('name')}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="template-subject">Subject</Label>
            <Input
              id="template-subject"
              value={form.subject}
              aria-invalid={errors.subject ? true : undefined}
              onChange={(e) => setForm({ ...form, subject: e.target.value })}
            />
            {errorOf('subject')}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="template-content">Content</Label>
            <Textarea
              id="template-content"
              ref={content}
              rows={10}
              value={form.content}
              aria-invalid={errors.content ? true : undefined}
              onChange={(e) => setForm({ ...form, content: e.target.value })}
            />
            {errorOf('content')}
          </div>
          <div className="flex flex-wrap gap-1" role="group" aria-label="Insert a merge field">
            {(Object.keys(MERGE_FIELDS) as MergeField[]).map((field) => (
              <Button
                key={field}
                type="button"
                variant="outline"
                size="sm"
                onClick={() => insertField(field)}
              >
                {MERGE_FIELDS[field]}
              </Button>
            ))}
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={form.isDefault}
              onChange={(e) => setForm({ ...form, isDefault: e.target.checked })}
            />
            Default template
          </label>
        </div>
        <section
          aria-label="Preview"
          className="flex flex-col gap-2 rounded-md border border-border bg-muted/30 p-3 text-sm"
        >
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
            Preview for {SAMPLE_CONTACT.firstName} {SAMPLE_CONTACT.lastName}
          </p>
          <p className="font-medium">{renderMergeFields(form.subject, SAMPLE_CONTACT) || 'No subject'}</p>
          <p className="whitespace-pre-wrap">{renderMergeFields(form.content, SAMPLE_CONTACT)}</p>
        </section>
        <DialogFooter className="md:col-span-2">
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save template'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
