import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** A 200×200 QR code of an address, drawn in the browser: nothing leaves for a public QR service (decision 000). */
export function QrCodeImage({ address }: { address: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    void QRCode.toDataURL(address, { width: 200, margin: 1 }).then(setImage);
  }, [address]);
  return image ? (
    <img
      src={image}
      alt={`QR code for ${address}`}
      width={200}
      height={200}
      className="mx-auto rounded bg-white"
    />
  ) : (
    <div className="mx-auto size-[200px]" aria-hidden />
  );
}
