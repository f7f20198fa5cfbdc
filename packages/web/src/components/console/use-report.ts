import { useState } from 'react';

/**
 * A report the staff run with a button (the audit, the game-security reports): its last answer, whether
 * one is being computed (the button is disabled meanwhile), and the run itself.
 */
export function useReport<T>(request: () => Promise<T | null>): {
  readonly value: T | null;
  readonly busy: boolean;
  readonly run: () => void;
} {
  const [value, setValue] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (): void => {
    setBusy(true);
    void request()
      .then(setValue)
      .finally(() => {
        setBusy(false);
      });
  };
  return { value, busy, run };
}
