import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

/** The keypad: each pressed digit shows a toast for 1.5 s. */
export function DialerKeypad({ onDigit }: { onDigit: (digit: string) => void }) {
  return (
    <div className="grid grid-cols-3 gap-2" role="group" aria-label="Keypad">
      {KEYS.map((key) => (
        <Button
          key={key}
          type="button"
          variant="outline"
          className="h-11 text-lg font-semibold"
          onClick={() => {
            toast(key, { duration: 1500 });
            onDigit(key);
          }}
        >
          {key}
        </Button>
      ))}
    </div>
  );
}
