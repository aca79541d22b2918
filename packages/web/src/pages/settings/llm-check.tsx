import type { LLMCheckRequest, LLMCheckResult } from '@bosun/protocol';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice } from '../../ui/feedback.tsx';

/** The "Test" button: one tiny call to the model as the form has it, and what came back. */
export function LlmCheck({ request }: { request: () => LLMCheckRequest }) {
  const api = useApi();
  const check = useMutation({ mutationFn: () => api.post('/api/v1/settings/llm/check', { body: request() }) });
  return (
    <div className="llm-check">
      <div className="row">
        <Button onClick={() => check.mutate()} busy={check.isPending}>
          Test
        </Button>
        <span className="muted">Sends one short message to the model as set above (saved or not).</span>
      </div>
      <div aria-live="polite">
        {check.isError && <ErrorNotice error={check.error} />}
        {check.data && <CheckResult result={check.data} />}
      </div>
    </div>
  );
}

function CheckResult({ result }: { result: LLMCheckResult }) {
  if (result.ok) {
    return (
      <div className="notice notice-success check-result">
        <strong>It works.</strong> {result.model} answered in {result.latency_ms} ms
        {result.answer ? (
          <>
            : <q>{result.answer}</q>
          </>
        ) : (
          '.'
        )}
      </div>
    );
  }
  return (
    <div className="notice notice-error check-result">
      <strong>{result.status ? `The model refused the call (HTTP ${result.status}):` : 'The call failed:'}</strong>
      <pre className="check-error">{result.error}</pre>
    </div>
  );
}
