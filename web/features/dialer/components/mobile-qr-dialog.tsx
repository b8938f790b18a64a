import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { QrCodeImage } from './qr-code-image.tsx';

/**
 * Mobile QR (decision 000): the address of this page as a 200×200 QR code drawn in the browser;
 * nothing leaves for a public QR service.
 */
export function MobileQrDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const address = `${window.location.origin}/power-dialer`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-sm">
        <DialogHeader>
          <DialogTitle>Open Dialer on Mobile</DialogTitle>
          <DialogDescription>Scan with your phone's camera to open {address}.</DialogDescription>
        </DialogHeader>
        {open && <QrCodeImage address={address} />}
      </DialogContent>
    </Dialog>
  );
}
