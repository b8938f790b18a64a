import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Plus } from 'lucide-react';
import { COLD_LEAD_REQUIRED } from '#domain/contacts/cold-lead.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { useCreateColdLead } from '../api/contacts-queries.ts';

const EMPTY = { company: '', phone: '', website: '', contactName: '', title: '', notes: '' };
const FIELDS: { key: keyof typeof EMPTY; label: string; type?: string }[] = [
  { key: 'company', label: 'Company Name' },
  { key: 'phone', label: 'Phone', type: 'tel' },
  { key: 'website', label: 'Website' },
  { key: 'contactName', label: 'Contact Name' },
  { key: 'title', label: 'Contact Title' },
];

/** Add Cold Lead: a company name or a phone number is enough. */
export function AddColdLeadDialog() {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const create = useCreateColdLead();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.company.trim() && !form.phone.trim())
      return toast.error(COLD_LEAD_REQUIRED.title, { description: COLD_LEAD_REQUIRED.description });
    create.mutate(form, {
      onSuccess: ({ contact }) => {
        toast.success('Cold lead created', {
          description: `${contact.firstName} ${contact.lastName} was added to your contacts.`,
        });
        setForm(EMPTY);
        setOpen(false);
      },
      onError: (error) =>
        toast.error('Error creating cold lead', { description: error.message || 'Please try again' }),
    });
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus /> Add Cold Lead
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Cold Lead</DialogTitle>
          <DialogDescription>A company name or a phone number is enough to start.</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-3" onSubmit={handleSubmit} noValidate>
          {FIELDS.map((f) => (
            <div key={f.key} className="flex flex-col gap-1.5">
              <Label htmlFor={`cold-${f.key}`}>{f.label}</Label>
              <Input
                id={`cold-${f.key}`}
                type={f.type ?? 'text'}
                value={form[f.key]}
                onChange={(e) => setForm({ ...form, [f.key]: e.target.value })}
              />
            </div>
          ))}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="cold-notes">Notes</Label>
            <Textarea
              id="cold-notes"
              value={form.notes}
              onChange={(e) => setForm({ ...form, notes: e.target.value })}
            />
          </div>
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Cold Lead'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
