import { cn } from '../../lib/cn.ts';
import { Input } from './input.tsx';
import { Label } from './label.tsx';

/** "Day" and a date box (YYYY-MM-DD); clearing the box keeps the day shown, so a screen always has one. */
export function DayField(props: {
  id: string;
  value: string;
  onChange: (day: string) => void;
  max?: string;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col gap-1.5', props.className)}>
      <Label htmlFor={props.id}>Day</Label>
      <Input
        id={props.id}
        type="date"
        value={props.value}
        max={props.max}
        onChange={(e) => e.target.value && props.onChange(e.target.value)}
      />
    </div>
  );
}
