// The list draws only the rows near the viewport (and spacers for the rest): a thousand runs cost
// the browser the layout and paint of a screenful, whatever the list's length. Every row is one
// line high (the cells do not wrap), so a row's slot is its index times the row height.
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';

/** Rows drawn beyond each edge of the viewport, so a scroll shows drawn rows before the next update. */
const OVERSCAN = 20;
/** The row height assumed until a drawn row is measured (px). */
const DEFAULT_ROW_PX = 30;

/** Which rows to draw: `[start, end)` of the list, and the height of one row. */
export interface RowWindow {
  start: number;
  end: number;
  rowPx: number;
}

/** The rows of a list of `count` in the table body `body` that the viewport shows, kept current on scroll and resize. */
export function useRowWindow(count: number, body: RefObject<HTMLTableSectionElement | null>): RowWindow {
  const [rowPx, setRowPx] = useState(DEFAULT_ROW_PX);
  const [range, setRange] = useState<[number, number]>([0, Math.min(count, 2 * OVERSCAN)]);
  useLayoutEffect(() => {
    const row = body.current?.querySelector('tr[data-run]');
    const measured = row?.getBoundingClientRect().height ?? 0;
    if (measured > 0 && Math.abs(measured - rowPx) > 0.5) setRowPx(measured);
  });
  useEffect(() => {
    const update = (): void => {
      const top = body.current?.getBoundingClientRect().top ?? 0;
      const first = Math.max(0, Math.min(count, Math.floor(-top / rowPx) - OVERSCAN));
      const last = Math.max(first, Math.min(count, Math.ceil((window.innerHeight - top) / rowPx) + OVERSCAN));
      setRange((prev) => (prev[0] === first && prev[1] === last ? prev : [first, last]));
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [count, rowPx, body]);
  return { start: Math.min(range[0], count), end: Math.min(range[1], count), rowPx };
}
