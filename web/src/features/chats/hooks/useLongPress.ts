/**
 * A long press on a touch screen (pen or finger, not the mouse): `onLongPress` gets the point after
 * `ms` unless the finger moved more than 10px or lifted. Spread the returned handlers on the element.
 */
import { useEffect, useRef, type PointerEvent } from 'react';

export function useLongPress(enabled: boolean, onLongPress: (at: { x: number; y: number }) => void, ms = 500) {
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const cancel = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  useEffect(() => cancel, []);
  return {
    onPointerDown: (e: PointerEvent) => {
      if (!enabled || e.pointerType === 'mouse') return;
      const { clientX: x, clientY: y } = e;
      cancel();
      press.current = {
        x,
        y,
        timer: setTimeout(() => {
          press.current = null;
          navigator.vibrate?.(10);
          onLongPress({ x, y });
        }, ms),
      };
    },
    onPointerMove: (e: PointerEvent) => {
      const p = press.current;
      if (p && Math.hypot(e.clientX - p.x, e.clientY - p.y) > 10) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerLeave: cancel,
  };
}
