import { useEffect, useState } from 'react';
import type { LlmRetry } from '../timeline/model.ts';

/** "The model did not answer; retry 2 of 5 in 16 s", with the error, while an LLM call is retried. */
export function RetryNotice({ retry }: { retry: LlmRetry }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const next = retry.next_attempt_at ? Date.parse(retry.next_attempt_at) : Number.NaN;
  const seconds = Number.isNaN(next) ? (retry.delay_s ?? 0) : Math.max(0, Math.ceil((next - now) / 1000));
  const retries = Math.max(1, retry.max_attempts - 1);
  return (
    <output className="notice notice-warning retry-notice">
      <strong>
        The model did not answer; retry {retry.attempt} of {retries} {seconds > 0 ? `in ${seconds} s` : 'now'}.
      </strong>
      <p className="small error-detail">{retry.error}</p>
    </output>
  );
}
