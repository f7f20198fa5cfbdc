import { useEffect, useRef } from 'react';

/**
 * Runs `load` now and every `ms` while the component is shown (the room pushes no tournament lobby or
 * page; a request still in flight is not repeated).
 */
export function usePolling(load: () => Promise<void>, ms: number, active = true): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    if (!active) return undefined;
    let busy = false;
    const run = (): void => {
      if (busy) return;
      busy = true;
      void latest.current().finally(() => {
        busy = false;
      });
    };
    run();
    const timer = setInterval(run, ms);
    return () => {
      clearInterval(timer);
    };
  }, [ms, active]);
}
