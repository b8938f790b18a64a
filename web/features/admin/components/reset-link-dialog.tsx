import { useEffect } from 'react';
import { toast } from 'sonner';
import type { Profile } from '#domain/profiles/profile.schema.ts';
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
import { useResetLink } from '../api/admin-queries.ts';

/** A one-time password-reset link for a person, valid for one hour; works with or without a mail server. */
export function ResetLinkDialog({ person, onClose }: { person: Profile | null; onClose: () => void }) {
  const link = useResetLink();
  const { mutate, reset } = link;
  useEffect(() => {
    if (person) mutate(person.id);
    else reset();
  }, [person, mutate, reset]);

  return (
    <Dialog open={person !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Password reset link</DialogTitle>
          <DialogDescription>
            Give this one-time link to {person?.email}. It works once and expires in one hour; their open
            sessions end when they use it.
          </DialogDescription>
        </DialogHeader>
        {link.isError && (
          <p role="alert" className="text-sm text-destructive">
            {link.error.message}
          </p>
        )}
        {link.data && (
          <Input
            aria-label="Reset link"
            readOnly
            value={link.data.url}
            onFocus={(e) => e.currentTarget.select()}
          />
        )}
        <DialogFooter>
          <Button
            disabled={!link.data}
            onClick={() =>
              void navigator.clipboard
                .writeText(link.data?.url ?? '')
                .then(() => toast.success('Link copied'))
                .catch(() =>
                  toast.error('Could not copy', { description: 'Select the link and copy it by hand.' }),
                )
            }
          >
            Copy link
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
