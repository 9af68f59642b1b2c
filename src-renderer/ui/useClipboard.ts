import { useCallback, useEffect, useRef, useState } from 'react';

/** Copies text; `copied` is true for a moment after it worked, `failed` when the clipboard is not available. */
export function useClipboard(): { copy(text: string): Promise<void>; copied: boolean; failed: boolean } {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setFailed(false);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 1500);
    } catch {
      setFailed(true);
    }
  }, []);
  return { copy, copied, failed };
}
