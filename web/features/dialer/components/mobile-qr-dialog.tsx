import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';

/**
 * Mobile QR (spec part 2 §2.4; decision 000): the address of this page as a 200×200 QR code drawn in the browser;
 * nothing leaves for a public QR service.
 */
export function MobileQrDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [image, setImage] = useState<string | null>(null);
  const address = `${window.location.origin}/power-dialer`;
  useEffect(() => {
    if (!open) return;
    void QRCode.toDataURL(address, { width: 200, margin: 1 }).then(setImage);
  }, [open, address]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-sm">
        <DialogHeader>
          <DialogTitle>Open Dialer on Mobile</DialogTitle>
          <DialogDescription>Scan with your phone's camera to open {address}.</DialogDescription>
        </DialogHeader>
        {image && (
          <img
            src={image}
            alt={`QR code for ${address}`}
            width={200}
            height={200}
            className="mx-auto rounded bg-white"
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
